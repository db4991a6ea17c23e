# CMake generated Testfile for 
# Source directory: /work/main/native-host
# Build directory: /work/main/native-host/build-deepstream
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test(ops-core "/work/main/native-host/build-deepstream/dsnode-ops-test")
set_tests_properties(ops-core PROPERTIES  _BACKTRACE_TRIPLES "/work/main/native-host/CMakeLists.txt;74;add_test;/work/main/native-host/CMakeLists.txt;0;")
add_test(runtime-driver "/work/main/native-host/build-deepstream/dsnode-runtime-driver")
set_tests_properties(runtime-driver PROPERTIES  _BACKTRACE_TRIPLES "/work/main/native-host/CMakeLists.txt;297;add_test;/work/main/native-host/CMakeLists.txt;0;")
add_test(meta-core "/work/main/native-host/build-deepstream/dsnode-meta-test")
set_tests_properties(meta-core PROPERTIES  _BACKTRACE_TRIPLES "/work/main/native-host/CMakeLists.txt;298;add_test;/work/main/native-host/CMakeLists.txt;0;")
