// What the pages' scripts find on window besides the DOM: Django's JavaScript
// catalogue (/jsi18n/, django.views.i18n.JavaScriptCatalog) defines these
// when its <script> loaded; the modules fall back to English without it.
interface Window {
  gettext?: (text: string) => string;
  ngettext?: (singular: string, plural: string, count: number) => string;
  interpolate?: (template: string, values: unknown[] | Record<string, unknown>, named?: boolean) => string;
  webkitAudioContext?: typeof AudioContext;
  // The chart library, static/vendor/uplot/ (docs/charts.md): a classic script, before static/js/charts.js.
  uPlot?: typeof uPlot;
}
