// A local npm registry for test/registry.test.ts: verdaccio on 127.0.0.1, on a port the system
// picks, with the configuration given. Prints "listening <port>" once it accepts connections;
// SIGTERM stops it.
//
//   node test/helpers/local-registry-server.cjs <config.yaml>
"use strict";
const { runServer } = require("verdaccio");

runServer(process.argv[2]).then(
  (server) => {
    server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`));
    process.on("SIGTERM", () => process.exit(0));
  },
  (error) => {
    process.stderr.write(`local registry: ${error.stack ?? error}\n`);
    process.exit(1);
  },
);
