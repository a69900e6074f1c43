"""Static files storage of the deployed site."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """Hashed, compressed copies (``collectstatic``), with the ES-module
    imports between scripts rewritten to the hashed names too: the table page's
    ``table.<hash>.js`` imports ``./table_render.<hash>.js``, never the
    unhashed ``./table_render.js``, which a proxy caching ``/static/`` for a
    year as immutable would keep serving stale after a deploy."""

    support_js_module_import_aggregation = True
