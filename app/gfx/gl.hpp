// The one include for OpenGL in app/gfx: the glad loader generated at configure time (GL 3.3 core).
#pragma once
#include <glad/gl.h>
