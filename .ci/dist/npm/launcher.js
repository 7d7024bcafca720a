#!/usr/bin/env node
// ghostlight-mcp: runs the Ghostlight binary of this machine's platform
// package (ghostlight-mcp-<os>-<cpu>, an optionalDependency npm installs only
// where its os and cpu match), passing every argument on and stdio through:
//   npx ghostlight-mcp serve
"use strict";
const { spawn } = require("child_process");

const platforms = __PLATFORMS__;
const key = process.platform + "-" + process.arch;
const pkg = platforms[key];
if (!pkg) {
  console.error("ghostlight-mcp: no Ghostlight binary is published for " + key +
    " (there are: " + Object.keys(platforms).join(", ") + ");" +
    " build one with: go install github.com/ghostlight-dev/ghostlight/tools/ghostlight@latest");
  process.exit(1);
}
const exe = "bin/ghostlight" + (process.platform === "win32" ? ".exe" : "");
let bin;
try {
  bin = require.resolve(pkg + "/" + exe);
} catch (e) {
  console.error("ghostlight-mcp: the package " + pkg + " is missing: npm installs it as an optional" +
    " dependency, so an install with --omit=optional or --no-optional leaves it out;" +
    " reinstall without that flag.");
  process.exit(1);
}
const child = spawn(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => { child.kill(sig); });
}
child.on("error", (e) => {
  console.error("ghostlight-mcp: cannot run " + bin + ": " + e.message);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
