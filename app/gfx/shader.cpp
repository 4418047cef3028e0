// GLSL program loading with file names and compile/link logs in every error.
#include "app/gfx/shader.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "app/model/data_files.hpp"

namespace peviz::gfx {

namespace {

// The file's "#version" line replaced by this platform's (kGlslVersion), which comes first.
std::string with_platform_version(const std::string& source) {
  std::string out = kGlslVersion;
  std::istringstream lines(source);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("#version", 0) != 0) out += line + "\n";
  return out;
}

std::string read_shader(const std::string& name, std::string& path_out) {
  const std::string relative = "shaders/" + name;
  const auto path = app::find_data_file(relative);
  if (path.empty()) throw ShaderError("shader file not found: " + app::describe_search(relative));
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  if (!in.good() && !in.eof()) throw ShaderError("cannot read shader file " + path.string());
  path_out = path.string();
  return with_platform_version(ss.str());
}

// The compile or link log of a shader or program (glGet{Shader,Program}iv / ...InfoLog).
template <class GetIv, class GetLog>
std::string info_log(GLuint object, GetIv get_iv, GetLog get_log) {
  GLint length = 0;
  get_iv(object, GL_INFO_LOG_LENGTH, &length);
  std::string log(std::size_t(std::max(length, 1)), '\0');
  get_log(object, length, nullptr, log.data());
  return log.c_str();
}

GLuint compile(GLenum type, const std::string& name) {
  std::string path;
  const std::string source = read_shader(name, path);
  const GLuint shader = glCreateShader(type);
  const char* src = source.c_str();
  glShaderSource(shader, 1, &src, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    const std::string log = info_log(shader, glGetShaderiv, glGetShaderInfoLog);
    glDeleteShader(shader);
    throw ShaderError("shader " + path + " failed to compile:\n" + log);
  }
  return shader;
}

}  // namespace

GLuint load_program(const std::string& vertex_name, const std::string& fragment_name) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_name);
  GLuint fs = 0;
  try {
    fs = compile(GL_FRAGMENT_SHADER, fragment_name);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    const std::string log = info_log(program, glGetProgramiv, glGetProgramInfoLog);
    glDeleteProgram(program);
    throw ShaderError("shaders " + vertex_name + " + " + fragment_name + " failed to link:\n" + log);
  }
  return program;
}

}  // namespace peviz::gfx
