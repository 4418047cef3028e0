// The one include for OpenGL in app/gfx: the glad loader generated at configure time (GL 3.3 core) on the
// desktop, OpenGL ES 3.0 (WebGL 2) in the browser build; and the GLSL version line each one compiles.
#pragma once
#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <glad/gl.h>
#endif

namespace peviz::gfx {

// The shaders in shaders/ are written for "#version 330 core"; load_program puts this line in its place.
// GLSL ES 3.00 has the same texelFetch, isnan and `out` as GLSL 3.30 but needs default precisions.
#ifdef __EMSCRIPTEN__
inline constexpr const char* kGlslVersion =
    "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n";
#else
inline constexpr const char* kGlslVersion = "#version 330 core\n";
#endif

}  // namespace peviz::gfx
