'use strict';
// Where the native artefacts of ds-element-native live. Only sdk/src/native/ reads this.
//
// DS_ELEMENT_NATIVE_DIR names another build of this package's native code (a folder holding
// libgstdsnode.so, libdsnode-runtime.so.0 and dsnode_standalone.node): `npm run test:deepstream`
// points it at native-host/build-deepstream/Release so that the DeepStream build never
// replaces the portable one in build/Release.
const path = require('node:path');

const buildDir = process.env.DS_ELEMENT_NATIVE_DIR
  ? path.resolve(process.env.DS_ELEMENT_NATIVE_DIR)
  : path.join(__dirname, 'build', 'Release');
module.exports = {
  buildDir,
  pluginPath: path.join(buildDir, 'libgstdsnode.so'),
  runtimePath: path.join(buildDir, 'libdsnode-runtime.so.0'),
  // The standalone binding: the metadata binding + harness, loadable by any Node (process.dlopen).
  standaloneBindingPath: path.join(buildDir, 'dsnode_standalone.node'),
};
