// The resolve hook of static_files.js: an import that names no file is
// looked for at the same path under every other static folder.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const ROOT = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));
const STATIC_ROOTS = ["static", "games/static", "lobby/static", "accounts/static"].map((folder) => path.join(ROOT, folder));

/**
 * @param {string} file
 * @returns {string | null}
 */
function found(file) {
  for (const root of STATIC_ROOTS) {
    const inside = path.relative(root, file);
    if (inside.startsWith("..") || path.isAbsolute(inside)) continue;
    for (const other of STATIC_ROOTS) {
      const candidate = path.join(other, inside);
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

/**
 * @param {string} specifier
 * @param {{parentURL?: string}} context
 * @param {(specifier: string, context: object) => Promise<{url: string}>} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  if ((specifier.startsWith("./") || specifier.startsWith("../")) && context.parentURL && context.parentURL.startsWith("file:")) {
    const target = fileURLToPath(new URL(specifier, context.parentURL));
    if (!existsSync(target)) {
      const other = found(target);
      if (other) return nextResolve(pathToFileURL(other).href, context);
    }
  }
  return nextResolve(specifier, context);
}
