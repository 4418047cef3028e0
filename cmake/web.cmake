# The browser build (em++ from Debian's emscripten, `./setup.sh web`): the third-party libraries compiled from
# Debian's source packages, the platform files it swaps, and the page (index.html, peviz.js, peviz.wasm, peviz.data).
#   PEVIZ_WEB_SOURCES  the folder tools/web/fetch_sources.sh unpacked imgui-*, zlib-* and libpng1.6-* into
#   PEVIZ_WEB_SITE     where the page goes (default <build>/site)
# Nothing here downloads: emscripten's own ports (USE_ZLIB, USE_LIBPNG) would, so they are not used; its GLFW
# (USE_GLFW=3) and WebGL 2 are built in.
#   PEVIZ_WEB_THREADS  ON: the threaded page (peviz-threads.js, .wasm, .worker.js, .data), every object compiled with
#                      -pthread, the Lab's runs on a pool of web workers; the page loads it where it is cross-origin
#                      isolated (web/peviz-page.js), the one-thread build (peviz.js) elsewhere. setup.sh builds both.
option(PEVIZ_WEB_THREADS "The browser build with threads (peviz-threads.js, for cross-origin isolated pages)" OFF)
if(PEVIZ_WEB_THREADS)
  add_compile_options(-pthread)
  add_link_options(-pthread)
endif()
set(PEVIZ_WEB_SOURCES "${CMAKE_BINARY_DIR}/src" CACHE PATH "Debian source packages for the browser build")
set(PEVIZ_WEB_SITE "${CMAKE_BINARY_DIR}/site" CACHE PATH "Output folder of the browser build")

function(peviz_web_source_dir var pattern)
  file(GLOB dirs LIST_DIRECTORIES true "${PEVIZ_WEB_SOURCES}/${pattern}")
  list(FILTER dirs EXCLUDE REGEX "\\.(tar\\..*|dsc)$")
  if(NOT dirs)
    message(FATAL_ERROR "no ${pattern} in ${PEVIZ_WEB_SOURCES}: run tools/web/fetch_sources.sh ${PEVIZ_WEB_SOURCES}")
  endif()
  list(GET dirs 0 dir)
  set(${var} "${dir}" PARENT_SCOPE)
endfunction()
peviz_web_source_dir(PEVIZ_ZLIB_DIR "zlib-*")
peviz_web_source_dir(PEVIZ_PNG_DIR "libpng1.6-*")
peviz_web_source_dir(PEVIZ_IMGUI_DIR "imgui-*")

# C++ exceptions are part of the error handling (ParamError and friends): caught in wasm as on the desktop.
# wasm SIMD for the table and similarity kernels (the compiler vectorises the same loops as on x86).
add_compile_options(-fexceptions -msimd128)
add_link_options(-fexceptions)

# Header-only libraries from Debian's -dev packages, seen through a folder of links (never all of /usr/include,
# whose glibc headers would shadow emscripten's libc).
set(PEVIZ_WEB_INCLUDE "${CMAKE_BINARY_DIR}/include")
file(MAKE_DIRECTORY ${PEVIZ_WEB_INCLUDE})
foreach(link nlohmann:/usr/include/nlohmann CLI:/usr/include/CLI Eigen:/usr/include/eigen3/Eigen)
  string(REPLACE ":" ";" pair ${link})
  list(GET pair 0 name)
  list(GET pair 1 target)
  if(NOT EXISTS ${target})
    message(FATAL_ERROR "${target} is missing: ./setup.sh web installs nlohmann-json3-dev, libcli11-dev and libeigen3-dev")
  endif()
  file(CREATE_LINK ${target} ${PEVIZ_WEB_INCLUDE}/${name} SYMBOLIC)
endforeach()
include_directories(SYSTEM ${PEVIZ_WEB_INCLUDE})

# zlib and libpng: the library sources of Debian's packages, compiled as they are.
set(zlib_files adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback inffast inflate inftrees trees
               uncompr zutil)
list(TRANSFORM zlib_files PREPEND ${PEVIZ_ZLIB_DIR}/)
list(TRANSFORM zlib_files APPEND .c)
add_library(peviz_web_zlib STATIC ${zlib_files})
target_include_directories(peviz_web_zlib SYSTEM PUBLIC ${PEVIZ_ZLIB_DIR})
target_compile_options(peviz_web_zlib PRIVATE -w -DHAVE_UNISTD_H -DHAVE_STDARG_H)

set(png_files png pngerror pngget pngmem pngpread pngread pngrio pngrtran pngrutil pngset pngtrans pngwio pngwrite
              pngwtran pngwutil)
list(TRANSFORM png_files PREPEND ${PEVIZ_PNG_DIR}/)
list(TRANSFORM png_files APPEND .c)
configure_file(${PEVIZ_PNG_DIR}/scripts/pnglibconf.h.prebuilt ${CMAKE_BINARY_DIR}/png/pnglibconf.h COPYONLY)
add_library(peviz_web_png STATIC ${png_files})
target_include_directories(peviz_web_png SYSTEM PUBLIC ${PEVIZ_PNG_DIR} ${CMAKE_BINARY_DIR}/png)
target_compile_options(peviz_web_png PRIVATE -w)
target_link_libraries(peviz_web_png PUBLIC peviz_web_zlib)

add_library(peviz_dep_png INTERFACE)
target_link_libraries(peviz_dep_png INTERFACE peviz_web_png)
# Matrix products: Eigen (header-only) in place of OpenBLAS (core/train/gemm.cpp, PEVIZ_GEMM_EIGEN).
add_library(peviz_dep_blas INTERFACE)
target_compile_definitions(peviz_dep_blas INTERFACE PEVIZ_GEMM_EIGEN EIGEN_DONT_PARALLELIZE)
# Eigen 3.4 has no packet code for wasm SIMD and multiplies with scalars there; emscripten's SSE2 headers
# (xmmintrin.h, emmintrin.h: each intrinsic one or a few wasm SIMD instructions) give it its SSE2 kernels, 4 floats
# a lane, multiply then add as on x86 without FMA. -msse2 for gemm.cpp alone (compiled outside the unity batches).
# Eigen also includes <mmintrin.h> (MMX), which emscripten does not have and Eigen's float kernels never use: an
# empty one stands in.
file(WRITE ${CMAKE_BINARY_DIR}/sse-on-wasm/mmintrin.h "// MMX: not used by Eigen's SSE2 float kernels\n")
set_source_files_properties(core/train/gemm.cpp PROPERTIES COMPILE_OPTIONS "-msse2;-isystem;${CMAKE_BINARY_DIR}/sse-on-wasm")

# Dear ImGui 1.86 with std::string widgets (imgui_stdlib, as Debian's libimgui has them) and its GLFW and
# OpenGL 3 (as OpenGL ES 3 = WebGL 2) back ends.
add_library(peviz_web_imgui STATIC ${PEVIZ_IMGUI_DIR}/imgui.cpp ${PEVIZ_IMGUI_DIR}/imgui_draw.cpp
            ${PEVIZ_IMGUI_DIR}/imgui_tables.cpp ${PEVIZ_IMGUI_DIR}/imgui_widgets.cpp
            ${PEVIZ_IMGUI_DIR}/misc/cpp/imgui_stdlib.cpp
            ${PEVIZ_IMGUI_DIR}/backends/imgui_impl_glfw.cpp ${PEVIZ_IMGUI_DIR}/backends/imgui_impl_opengl3.cpp)
target_include_directories(peviz_web_imgui SYSTEM PUBLIC ${PEVIZ_IMGUI_DIR} ${PEVIZ_IMGUI_DIR}/misc/cpp)
target_compile_definitions(peviz_web_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
target_compile_options(peviz_web_imgui PRIVATE -w)
add_library(peviz_dep_imgui INTERFACE)
target_link_libraries(peviz_dep_imgui INTERFACE peviz_web_imgui)
add_library(peviz_dep_window INTERFACE)
target_link_options(peviz_dep_window INTERFACE -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2)

# The desktop's file writers on cairo, giflib and FFmpeg: the browser build has app/media/media_web.cpp instead.
set(PEVIZ_DESKTOP_ONLY app/gfx/platform_desktop.cpp app/media/pdf_file.cpp app/media/gif_file.cpp app/media/mp4_file.cpp app/media/ffmpeg_api.cpp)

# The page's font: DejaVu Sans with only the glyphs the window rasterises (tools/web/subset_font.py: 13 KB gzip
# instead of 384 KB; the outlines, advance widths and line metrics ImGui reads unchanged), by Debian's python3 and
# python3-fonttools.
set(PEVIZ_WEB_FONT ${CMAKE_BINARY_DIR}/font/DejaVuSans.ttf)
add_custom_command(OUTPUT ${PEVIZ_WEB_FONT}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/font
  COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/tools/web/subset_font.py ${CMAKE_SOURCE_DIR}/assets/fonts/DejaVuSans.ttf
          ${CMAKE_SOURCE_DIR}/app/ui/theme.hpp ${PEVIZ_WEB_FONT}
  DEPENDS ${CMAKE_SOURCE_DIR}/tools/web/subset_font.py ${CMAKE_SOURCE_DIR}/assets/fonts/DejaVuSans.ttf
          ${CMAKE_SOURCE_DIR}/app/ui/theme.hpp
  COMMENT "The page's font, cut to the window's glyphs")
add_custom_target(peviz_web_font DEPENDS ${PEVIZ_WEB_FONT})

# The data every page may read, packed into peviz.data and mounted at /peviz (PEVIZ_SOURCE_DIR of the build):
# the font, shaders, presets, lessons, shipped models, one trained table. The Lab's other trained weights are
# fetched when the Lab first needs them (gfx::shipped_lab_runs).
function(peviz_web_page)
  add_executable(peviz_web programs/peviz_web.cpp)
  target_link_libraries(peviz_web PRIVATE peviz_ui)
  target_compile_options(peviz_web PRIVATE ${PEVIZ_WARNINGS})
  set(name peviz)
  set(environment -sENVIRONMENT=web)
  if(PEVIZ_WEB_THREADS)
    # One worker per core the browser reports, started with the page, so a run's thread never waits for one to load;
    # the Lab's RunQueue takes all but one of them (background_workers; the page's own thread never waits on them:
    # core/base/parallel.hpp).
    set(name peviz-threads)
    set(environment -sENVIRONMENT=web,worker -sPTHREAD_POOL_SIZE=navigator.hardwareConcurrency
                    -sPTHREAD_POOL_SIZE_STRICT=0)
  endif()
  set_target_properties(peviz_web PROPERTIES OUTPUT_NAME ${name} RUNTIME_OUTPUT_DIRECTORY ${PEVIZ_WEB_SITE} SUFFIX .js)
  set(data)
  foreach(dir shaders assets/presets assets/lessons assets/models)
    list(APPEND data "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/${dir}@/peviz/${dir}")
  endforeach()
  # The font cut to the glyphs the window loads (peviz_web_font), with its licence.
  list(APPEND data "SHELL:--preload-file ${PEVIZ_WEB_FONT}@/peviz/assets/fonts/DejaVuSans.ttf"
       "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/assets/fonts/DejaVuSans-LICENSE.txt@/peviz/assets/fonts/DejaVuSans-LICENSE.txt")
  add_dependencies(peviz_web peviz_web_font)
  # The shipped lab experiments' indexes, and the one trained table the lesson and Learned tables open at first sight.
  file(GLOB lab_indexes RELATIVE ${CMAKE_SOURCE_DIR}/assets/lab CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/assets/lab/*.json)
  foreach(file ${lab_indexes} default-copy-learned-seed0.safetensors)
    list(APPEND data "SHELL:--preload-file ${CMAKE_SOURCE_DIR}/assets/lab/${file}@/peviz/assets/lab/${file}")
  endforeach()
  target_link_options(peviz_web PRIVATE ${data} -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB
                      -sEXPORTED_RUNTIME_METHODS=ccall,FS -sEXPORTED_FUNCTIONS=_main,_malloc,_free
                      -sFORCE_FILESYSTEM=1 ${environment})
  file(GLOB_RECURSE page_inputs ${CMAKE_SOURCE_DIR}/shaders/* ${CMAKE_SOURCE_DIR}/assets/*)
  list(APPEND page_inputs ${PEVIZ_WEB_FONT})
  set_property(TARGET peviz_web APPEND PROPERTY LINK_DEPENDS ${page_inputs})
  # The page's own HTML shell and script; the lab's weights copied beside it for fetching on demand, with
  # lab/files.txt naming them (gfx::shipped_lab_runs).
  file(GLOB lab_runs RELATIVE ${CMAKE_SOURCE_DIR}/assets/lab ${CMAKE_SOURCE_DIR}/assets/lab/*.safetensors)
  list(JOIN lab_runs "\n" lab_list)
  file(WRITE ${CMAKE_BINARY_DIR}/lab-files.txt "${lab_list}\n")
  add_custom_command(TARGET peviz_web POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/web/index.html ${CMAKE_SOURCE_DIR}/web/peviz-page.js
            ${CMAKE_SOURCE_DIR}/web/peviz-isolation.js ${PEVIZ_WEB_SITE}/
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${CMAKE_SOURCE_DIR}/assets/lab ${PEVIZ_WEB_SITE}/lab
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_BINARY_DIR}/lab-files.txt ${PEVIZ_WEB_SITE}/lab/files.txt)
endfunction()
