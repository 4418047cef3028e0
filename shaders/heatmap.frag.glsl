// Heatmap pass, fragment stage: a float value per pixel, coloured through a 256-entry colormap.
#version 330 core
uniform sampler2D u_values;     // R32F: one value per output pixel, row 0 = the image's top row
uniform sampler2D u_colormaps;  // RGBA8: 256 x N, one colormap per row
uniform int u_colormap;         // row of u_colormaps
uniform vec2 u_range;           // (vmin, vmax) mapped onto entries 0 and 255
uniform vec3 u_missing;         // colour of NaN (missing values)
out vec4 frag_color;

void main() {
  float v = texelFetch(u_values, ivec2(gl_FragCoord.xy), 0).r;
  if (isnan(v)) {
    frag_color = vec4(u_missing, 1.0);
    return;
  }
  float span = u_range.y - u_range.x;
  float t = span > 0.0 ? clamp((v - u_range.x) / span, 0.0, 1.0) : 0.5;
  frag_color = vec4(texelFetch(u_colormaps, ivec2(int(t * 255.0 + 0.5), u_colormap), 0).rgb, 1.0);
}
