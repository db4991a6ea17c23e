#!/usr/bin/env node
"use strict";
// The `ds-element` command. The CLI itself is compiled TypeScript in dist/cli/.
const path = require("node:path");
const fs = require("node:fs");

const entry = path.join(__dirname, "..", "dist", "cli", "main.js");
if (!fs.existsSync(entry)) {
  process.stderr.write(
    `ds-element: the CLI is not built (${entry} is missing); run \`npm run build -w ds-element\` in the ds-element repository\n`,
  );
  process.exit(1);
}
require(entry)
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
