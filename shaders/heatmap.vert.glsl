// Heatmap pass, vertex stage: one triangle that covers the whole viewport (no vertex buffer).
#version 330 core
void main() {
  vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
