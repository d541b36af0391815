# SPDX-License-Identifier: GPL-3.0-or-later
# Finds "Score-P" the way public Score-P plugins' FindScorep.cmake files do,
# written for Metrograph's test: scorep-config (SCOREP_CONFIG, searched in
# SCOREP_CONFIG_PATH and /opt/scorep/bin unless given) is asked for
# --user --cppflags (the -I folders), --user --ldflags (the -L folders) and
# --user --libs (each -l must name a library found in those folders);
# SCOREP_CONFIG, SCOREP_LIBRARIES and SCOREP_INCLUDE_DIRS are all required.
find_program(SCOREP_CONFIG NAMES scorep-config PATHS ${SCOREP_CONFIG_PATH} /opt/scorep/bin)

set(SCOREP_INCLUDE_DIRS "")
set(SCOREP_LINK_DIRS "")
set(SCOREP_LIBRARIES "")
if(SCOREP_CONFIG)
  execute_process(COMMAND ${SCOREP_CONFIG} --user --cppflags OUTPUT_VARIABLE _mg_flags)
  string(REGEX MATCHALL "-I[^ ]*" _mg_includes "${_mg_flags}")
  foreach(_mg_include ${_mg_includes})
    string(SUBSTRING "${_mg_include}" 2 -1 _mg_include)
    list(APPEND SCOREP_INCLUDE_DIRS "${_mg_include}")
  endforeach()

  execute_process(COMMAND ${SCOREP_CONFIG} --user --ldflags OUTPUT_VARIABLE _mg_flags)
  string(REPLACE " " ";" _mg_flags "${_mg_flags}")
  foreach(_mg_flag ${_mg_flags})
    if(_mg_flag MATCHES "^-L")
      string(SUBSTRING "${_mg_flag}" 2 -1 _mg_flag)
      list(APPEND SCOREP_LINK_DIRS "${_mg_flag}")
    endif()
  endforeach()

  execute_process(COMMAND ${SCOREP_CONFIG} --user --libs OUTPUT_VARIABLE _mg_flags)
  string(REPLACE " " ";" _mg_flags "${_mg_flags}")
  foreach(_mg_flag ${_mg_flags})
    if(_mg_flag MATCHES "^-l")
      string(SUBSTRING "${_mg_flag}" 2 -1 _mg_flag)
      find_library(_mg_library NAMES ${_mg_flag} PATHS ${SCOREP_LINK_DIRS} NO_DEFAULT_PATH)
      if(_mg_library)
        list(APPEND SCOREP_LIBRARIES "${_mg_library}")
      endif()
      unset(_mg_library CACHE)
    endif()
  endforeach()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Scorep DEFAULT_MSG SCOREP_CONFIG SCOREP_LIBRARIES SCOREP_INCLUDE_DIRS)

if(Scorep_FOUND AND NOT TARGET Scorep::Plugin)
  add_library(Scorep::Plugin INTERFACE IMPORTED)
  set_target_properties(Scorep::Plugin PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${SCOREP_INCLUDE_DIRS}")
endif()
mark_as_advanced(SCOREP_CONFIG)
