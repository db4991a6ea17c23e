'use strict';
// Where the native artefacts of ds-element-native live. Only sdk/src/native/ reads this.
const path = require('node:path');

const buildDir = path.join(__dirname, 'build', 'Release');
module.exports = {
  buildDir,
  pluginPath: path.join(buildDir, 'libgstdsnode.so'),
  runtimePath: path.join(buildDir, 'libdsnode-runtime.so.0'),
  // The testing addon: the metadata binding + harness, loadable by any Node (process.dlopen).
  metaAddonPath: path.join(buildDir, 'dsnode_meta.node'),
};
