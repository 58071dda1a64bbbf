# IlanInstall.cmake - what `make install` puts under PREFIX: the runtime in a private folder, its header, pkg-config and CMake package files, the ilan command, the simulator's engine, machines and workloads, and the man pages.
#
#   PREFIX/lib/ilan/libgomp.so.1        the runtime (soname libgomp.so.1)
#   PREFIX/lib/ilan/libilan.so          -> libgomp.so.1, for -lilan
#   PREFIX/include/ilan.h
#   PREFIX/lib/pkgconfig/ilan.pc
#   PREFIX/lib/cmake/ilan/              find_package(ilan): target ilan::ilan
#   PREFIX/bin/ilan                     the ilan command (Python 3.11+)
#   PREFIX/share/ilan/python/ilan/      its package; PREFIX/share/ilan/bench/ its benchmark sources
#   PREFIX/share/man/man1/ilan.1, man7/ilan-env.7
#
# The runtime stays out of the loader's default search path on purpose: a
# library called libgomp.so.1 in PREFIX/lib would, after ldconfig, be loaded
# by every gcc -fopenmp program on the machine. Programs reach it through
# the ilan command, LD_LIBRARY_PATH, or the rpath that pkg-config and the
# CMake target add. ILAN_REPLACE_SYSTEM_LIBGOMP=ON is the explicit opt-in.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ILAN_INSTALL_LIBDIR ${CMAKE_INSTALL_LIBDIR}/ilan)
set(ILAN_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ilan)
set(ILAN_INSTALL_SHAREDIR ${CMAKE_INSTALL_DATADIR}/ilan)
set(ILAN_INSTALL_PYDIR ${ILAN_INSTALL_SHAREDIR}/python)
set(ILAN_GENERATED ${CMAKE_BINARY_DIR}/install)

# ---- the runtime ---------------------------------------------------------------
install(TARGETS ilan LIBRARY DESTINATION ${ILAN_INSTALL_LIBDIR})
install(CODE "file(CREATE_LINK libgomp.so.1 \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${ILAN_INSTALL_LIBDIR}/libilan.so\" SYMBOLIC)
message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${ILAN_INSTALL_LIBDIR}/libilan.so -> libgomp.so.1\")")
install(FILES ${CMAKE_SOURCE_DIR}/include/ilan.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

if(ILAN_REPLACE_SYSTEM_LIBGOMP)
  # The opt-in: PREFIX/lib/libgomp.so.1 -> ilan/libgomp.so.1. Once ldconfig
  # has run, every program that needs libgomp.so.1 and finds PREFIX/lib
  # before the system's copy (/usr/local/lib does on Debian and Ubuntu) runs
  # on ilan, system tools included. Undo: remove the link, run ldconfig.
  install(CODE "file(CREATE_LINK ilan/libgomp.so.1 \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/libgomp.so.1\" SYMBOLIC)
message(WARNING \"ILAN_REPLACE_SYSTEM_LIBGOMP: installed \${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/libgomp.so.1 -> ilan; after ldconfig every gcc -fopenmp program that searches that folder runs on ilan. Undo: rm that link && ldconfig\")")
endif()

# ---- pkg-config -----------------------------------------------------------------
# Written at install time: the prefix is only known then (cmake --install --prefix).
install(CODE "set(ILAN_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
set(ILAN_VERSION \"${PROJECT_VERSION}\")
set(ILAN_INSTALL_LIBDIR \"${ILAN_INSTALL_LIBDIR}\")
set(CMAKE_INSTALL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
configure_file(\"${CMAKE_CURRENT_LIST_DIR}/ilan.pc.in\" \"${ILAN_GENERATED}/ilan.pc\" @ONLY)")
install(FILES ${ILAN_GENERATED}/ilan.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- CMake package: find_package(ilan) ------------------------------------------
# Relocatable: the config file finds the prefix from its own location.
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ilanConfig.cmake.in
  ${ILAN_GENERATED}/ilanConfig.cmake
  INSTALL_DESTINATION ${ILAN_INSTALL_CMAKEDIR}
  PATH_VARS ILAN_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
# 0.x releases may change the API between minor versions.
write_basic_package_version_file(${ILAN_GENERATED}/ilanConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${ILAN_GENERATED}/ilanConfig.cmake ${ILAN_GENERATED}/ilanConfigVersion.cmake
  DESTINATION ${ILAN_INSTALL_CMAKEDIR})

# ---- the ilan command -----------------------------------------------------------
# The package is copied as is (no pip): bin/ilan puts its folder on sys.path.
# Paths between installed folders are relative, so the tree can be moved.
file(RELATIVE_PATH ILAN_BIN_TO_PYDIR /p/${CMAKE_INSTALL_BINDIR} /p/${ILAN_INSTALL_PYDIR})
file(RELATIVE_PATH ILAN_PKG_TO_LIBDIR /p/${ILAN_INSTALL_PYDIR}/ilan /p/${ILAN_INSTALL_LIBDIR})
configure_file(${CMAKE_CURRENT_LIST_DIR}/ilan-launcher.py.in ${ILAN_GENERATED}/ilan @ONLY)
# python/ilan/paths.py reads LIBDIR: the runtime's folder, relative to the package.
file(WRITE ${ILAN_GENERATED}/LIBDIR "${ILAN_PKG_TO_LIBDIR}\n")
install(PROGRAMS ${ILAN_GENERATED}/ilan DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/python/ilan/ DESTINATION ${ILAN_INSTALL_PYDIR}/ilan
  FILES_MATCHING PATTERN "*.py" PATTERN "*.c" PATTERN "py.typed"
  PATTERN "__pycache__" EXCLUDE)
# python/ilan/VERSION is a symlink to VERSION: install the file itself.
install(FILES ${CMAKE_SOURCE_DIR}/VERSION ${ILAN_GENERATED}/LIBDIR
  DESTINATION ${ILAN_INSTALL_PYDIR}/ilan)
# ilan sim: its engine beside the runtime, its machines and workloads in the share folder.
install(TARGETS ilan_sim_engine RUNTIME DESTINATION ${ILAN_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/sim/machines ${CMAKE_SOURCE_DIR}/sim/workloads
  DESTINATION ${ILAN_INSTALL_SHAREDIR}/sim
  FILES_MATCHING PATTERN "*.json" PATTERN "*.xml" PATTERN "README.md")
# ilan bench compiles these (into ~/.cache/ilan when installed).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/bench/ DESTINATION ${ILAN_INSTALL_SHAREDIR}/bench
  FILES_MATCHING PATTERN "*.c" PATTERN "*.cpp" PATTERN "*.h" PATTERN "README.md"
  PATTERN "results" EXCLUDE)
install(FILES ${CMAKE_SOURCE_DIR}/docs/man/ilan.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_SOURCE_DIR}/docs/man/ilan-env.7 DESTINATION ${CMAKE_INSTALL_MANDIR}/man7)
install(FILES ${CMAKE_SOURCE_DIR}/LICENSE ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
