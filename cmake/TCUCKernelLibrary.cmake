# The kernel library (docs/runtime.md "The kernel library"): every segment-
# class kernel for sm_80 and sm_90, written by `tcuc library` at build time
# into <build>/share/tcuc/kernels and installed with the runtime, so that a
# first call at any class size needs no compiler. With ptxas (a CUDA toolkit)
# each kernel also gets a cubin, which skips the driver's PTX JIT; without
# one the library holds PTX only.
# Off by default in sanitizer builds: they test the code, and would run the
# instrumented compiler over every kernel at build time.
if(LLVM_USE_SANITIZER)
  set(_tcuc_library_default OFF)
else()
  set(_tcuc_library_default ON)
endif()
option(TCUC_BUILD_KERNEL_LIBRARY "Build and install the kernel library"
       ${_tcuc_library_default})
set(TCUC_KERNEL_LIBRARY_BUILD_DIR ${CMAKE_BINARY_DIR}/share/tcuc/kernels)
set(TCUC_KERNEL_LIBRARY_HAS_CUBINS OFF)
if(TCUC_ENABLE_COMPILER AND TCUC_BUILD_KERNEL_LIBRARY)
  find_program(TCUC_PTXAS ptxas HINTS $ENV{CUDA_HOME}/bin /usr/local/cuda/bin)
  if(TCUC_PTXAS)
    set(_tcuc_ptxas ${TCUC_PTXAS})
    set(TCUC_KERNEL_LIBRARY_HAS_CUBINS ON)
    message(STATUS "tcuc kernel library: PTX and cubins (${TCUC_PTXAS})")
  else()
    set(_tcuc_ptxas none)
    message(STATUS "tcuc kernel library: PTX only (no ptxas found; the "
                   "driver compiles each kernel on its first load)")
  endif()
  # Reruns when tcuc changes; kernels of an unchanged build id are kept.
  add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/share/tcuc/kernels.stamp
    COMMAND tcuc library --out ${TCUC_KERNEL_LIBRARY_BUILD_DIR}
            --arch sm_80,sm_90 --ptxas ${_tcuc_ptxas}
    COMMAND ${CMAKE_COMMAND} -E touch
            ${CMAKE_BINARY_DIR}/share/tcuc/kernels.stamp
    DEPENDS tcuc
    COMMENT "tcuc kernel library"
    VERBATIM)
  add_custom_target(tcuc-kernel-library ALL
    DEPENDS ${CMAKE_BINARY_DIR}/share/tcuc/kernels.stamp)
  # Where the runtime looks by default (runtime/CMakeLists.txt).
  install(DIRECTORY ${TCUC_KERNEL_LIBRARY_BUILD_DIR}/
          DESTINATION ${TCUC_KERNEL_LIBRARY_INSTALL_DIR})
endif()
