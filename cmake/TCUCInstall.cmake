# `cmake --install <build> --prefix <prefix>`: tcuc as a package that another
# CMake project finds with find_package(TCUC) (docs/embedding.md;
# examples/embedding is such a project and CI builds it against a fresh
# install, test/Examples/embedding.test).
#
# Installed: the tools (bin/), the static libraries as imported targets
# TCUC::<name> (lib/, lib/cmake/tcuc/), the public headers with the
# tablegen'd .inc files (include/tcuc/), and the C runtime library.
# Our add_mlir_library calls say DISABLE_INSTALL: MLIR's own rule would put
# them in an `MLIRTargets` export set of ours that nothing installs; here
# they go into TCUCTargets under short names.
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(TCUC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/tcuc)

# Library target -> name in the package (TCUC::<name>).
set(_tcuc_runtime_exports
  TCUCSpec=Spec
  TCUCRuntime=Runtime
  tcuc_runtime=CRuntime
  tcuc_mgpu=MGPU
  TCUCReference=Reference
)
set(_tcuc_compiler_exports
  TCUCDialect=Dialect
  TCUCBufferization=Bufferization
  TCUCTransforms=Transforms
  TCUCStrategy=Strategy
  TCUCTCUToMMA=TCUToMMA
  TCUCTCUMMAToLoops=TCUMMAToLoops
  TCUCTCUMMAToGPU=TCUMMAToGPU
  TCUCPipelines=Pipelines
  TCUCInitAll=Passes
  TCUCGPU=JIT
  TCUCCPU=CPU
)
set(_tcuc_exports ${_tcuc_runtime_exports})
if(TCUC_ENABLE_COMPILER)
  list(APPEND _tcuc_exports ${_tcuc_compiler_exports})
endif()

set(_tcuc_targets)
foreach(_pair IN LISTS _tcuc_exports)
  string(REPLACE "=" ";" _pair "${_pair}")
  list(GET _pair 0 _target)
  list(GET _pair 1 _name)
  set_target_properties(${_target} PROPERTIES EXPORT_NAME ${_name})
  list(APPEND _tcuc_targets ${_target})
endforeach()

if(TCUC_ENABLE_COMPILER)
  # The MLIR libraries find their headers through directory-wide
  # include_directories in this tree; installed, everything is under include/.
  foreach(_pair IN LISTS _tcuc_compiler_exports)
    string(REGEX REPLACE "=.*" "" _target "${_pair}")
    target_include_directories(${_target} INTERFACE
                               $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  endforeach()
endif()

# Two export sets: the runtime's (TCUCRuntimeTargets), which needs neither
# LLVM nor MLIR, and the compiler's (TCUCTargets), which TCUCConfig.cmake
# loads only when the compiler is asked for (COMPONENTS Runtime: not).
set(_tcuc_runtime_targets)
set(_tcuc_compiler_targets)
foreach(_pair IN LISTS _tcuc_runtime_exports)
  string(REGEX REPLACE "=.*" "" _target "${_pair}")
  list(APPEND _tcuc_runtime_targets ${_target})
endforeach()
list(REMOVE_ITEM _tcuc_targets ${_tcuc_runtime_targets})
set(_tcuc_compiler_targets ${_tcuc_targets})
install(TARGETS ${_tcuc_runtime_targets}
  EXPORT TCUCRuntimeTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
)
install(EXPORT TCUCRuntimeTargets
  NAMESPACE TCUC::
  DESTINATION ${TCUC_INSTALL_CMAKEDIR}
)
if(_tcuc_compiler_targets)
  install(TARGETS ${_tcuc_compiler_targets}
    EXPORT TCUCTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  )
  install(EXPORT TCUCTargets
    NAMESPACE TCUC::
    DESTINATION ${TCUC_INSTALL_CMAKEDIR}
  )
endif()
install(TARGETS tcuc RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Headers: the runtime's always; the dialect's and the compiler's (with the
# generated .inc they include, and the .td files for those who extend the
# dialect) in the full build.
install(DIRECTORY ${TCUC_SOURCE_DIR}/runtime/include/tcuc
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${TCUC_SOURCE_DIR}/compiler/include/tcuc/Reference/Reference.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tcuc/Reference)
if(TCUC_ENABLE_COMPILER)
  install(TARGETS tcuc-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  foreach(_dir dialect/include compiler/include)
    install(DIRECTORY ${TCUC_SOURCE_DIR}/${_dir}/tcuc
            DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
            FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
    install(DIRECTORY ${TCUC_BINARY_DIR}/${_dir}/tcuc
            DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
            FILES_MATCHING PATTERN "*.h.inc"
            PATTERN "CMakeFiles" EXCLUDE)
  endforeach()
endif()

# The references generated from the ODS and Passes.td files (tcuc-doc:
# the tcu dialect's ops and types, every pass with its options), beside the
# headers they describe.
if(TCUC_ENABLE_COMPILER)
  install(DIRECTORY ${TCUC_BINARY_DIR}/docs/
          DESTINATION ${CMAKE_INSTALL_DOCDIR}/reference
          FILES_MATCHING PATTERN "*.md")
endif()

set(TCUC_HAS_COMPILER ${TCUC_ENABLE_COMPILER})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/TCUCConfig.cmake.in
  ${TCUC_BINARY_DIR}/cmake/TCUCConfig.cmake
  INSTALL_DESTINATION ${TCUC_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR
)
write_basic_package_version_file(
  ${TCUC_BINARY_DIR}/cmake/TCUCConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  # 0.x: a minor version may change the API.
  COMPATIBILITY SameMinorVersion
)
install(FILES ${TCUC_BINARY_DIR}/cmake/TCUCConfig.cmake
              ${TCUC_BINARY_DIR}/cmake/TCUCConfigVersion.cmake
        DESTINATION ${TCUC_INSTALL_CMAKEDIR})
