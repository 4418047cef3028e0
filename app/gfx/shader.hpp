// Loading GLSL programs from shaders/*.glsl at run time; failures name the file and the log.
#pragma once
#include <stdexcept>
#include <string>

#include "app/gfx/gl.hpp"

namespace peviz::gfx {

// A shader file that is missing, unreadable, fails to compile or to link. what() names the file
// (with the folders searched) and carries the driver's log.
struct ShaderError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Compiles shaders/<vertex_name> and shaders/<fragment_name> (found with find_data_file) and
// links them. Throws ShaderError.
GLuint load_program(const std::string& vertex_name, const std::string& fragment_name);

}  // namespace peviz::gfx
