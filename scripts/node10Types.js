// After the package build (`npm run prepare`): a copy of the declarations for programs compiled with
// `moduleResolution: node` (node10), which is what `pulumi new typescript` sets up.
//
// Why: zod's CommonJS declarations (what `"zod"` resolves to there) re-export `export =` modules as
// defaults, which compile only with `esModuleInterop` or `skipLibCheck` (colinhacks/zod#5160), and a
// Pulumi program's tsconfig has neither. Its ESM declarations (`zod/index.d.ts`) describe the same
// API without that, and node10 resolution, which ignores `exports`, finds them as "zod/index.js".
// Programs that resolve through `exports` (node16, nodenext, bundler) get dist/provider's own
// declarations, which keep `"zod"`; `package.json` points `types` here and `exports` there.
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const from = path.join(root, "dist", "provider");
const to = path.join(root, "dist", "types-node10");

function copyDeclarations(dir) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const source = path.join(dir, entry.name);
        if (entry.isDirectory()) {
            copyDeclarations(source);
        } else if (entry.name.endsWith(".d.ts")) {
            const target = path.join(to, path.relative(from, source));
            const text = fs.readFileSync(source, "utf8").replace(/(\bfrom\s+|\bimport\()(["'])zod\2/g, "$1$2zod/index.js$2");
            fs.mkdirSync(path.dirname(target), { recursive: true });
            fs.writeFileSync(target, text);
        }
    }
}

fs.rmSync(to, { recursive: true, force: true });
copyDeclarations(from);
