// Where this build put the peviz binary and where the checkout is, for the tests that run peviz or read shipped files.
// The values are defined in the build folder's generated/build_paths.cpp (tests/CMakeLists.txt) rather than on the
// compiler's command line, so no test's object holds an absolute path and the compiler cache serves any clone.
#pragma once

namespace peviz::test {

extern const char* const peviz_binary;  // this build's peviz executable
extern const char* const source_dir;    // the checkout's root folder

}  // namespace peviz::test
