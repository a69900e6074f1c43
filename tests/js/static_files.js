// Node resolves the browser modules' imports as the site serves them: the
// static folders of the apps and of the project are one tree under /static/
// (Django's static files finders), so "../../js/tiles.js" imported by
// games/static/games/js/table_reduce.js is static/js/tiles.js. Loaded with
// `node --import ./tests/js/static_files.js --test ...` (tests/test_js.py).
import { register } from "node:module";

register("./static_resolve.js", import.meta.url);
