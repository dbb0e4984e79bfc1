# Fails when a file of the repository points outside it: to the planning folder beside the
# clone (its design notes, its copies of the papers). Users get only this repository; papers
# are cited by author, title, section, figure and page (docs/REFERENCES.md).
# Run: cmake -DREPO=<source dir> -P check_self_contained.cmake   (CTest: repo_self_contained)
cmake_minimum_required(VERSION 3.20)
if(NOT REPO)
  message(FATAL_ERROR "set -DREPO=<the repository's top folder>")
endif()
get_filename_component(self "${CMAKE_CURRENT_LIST_FILE}" REALPATH)
# Split so that this file does not match itself when read by another checker.
set(up "\\.\\./")
# Also the design notes by name, and the "003:993" (seed file 003, line 993) citation form.
set(pattern "${up}shared|shared/(seeds|DESIGN|REFERENCES|STYLE)|seeds/00[0-9]|DESIGN\\.md|(^|[^0-9:])00[0-9]:[0-9][0-9][0-9]")

set(files "")
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS "${REPO}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${REPO}" -c core.quotepath=off ls-files
                  OUTPUT_VARIABLE listed RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "git ls-files failed in ${REPO} (exit ${rc})")
  endif()
  string(REPLACE ";" "\\;" listed "${listed}")
  string(REPLACE "\n" ";" listed "${listed}")
  foreach(f IN LISTS listed)
    if(f)
      list(APPEND files "${REPO}/${f}")
    endif()
  endforeach()
else()
  # Not a git checkout (a source tarball): every file but build output.
  file(GLOB_RECURSE files "${REPO}/*")
  list(FILTER files EXCLUDE REGEX "/(\\.git|target|build|out|\\.venv)/")
endif()

set(found 0)
foreach(f IN LISTS files)
  get_filename_component(real "${f}" REALPATH)
  if(real STREQUAL self OR IS_DIRECTORY "${f}" OR NOT EXISTS "${f}")
    continue()
  endif()
  file(STRINGS "${f}" hits REGEX "${pattern}")
  foreach(h IN LISTS hits)
    file(RELATIVE_PATH rel "${REPO}" "${f}")
    message(STATUS "${rel}: ${h}")
    math(EXPR found "${found} + 1")
  endforeach()
endforeach()
list(LENGTH files n)
if(found GREATER 0)
  message(FATAL_ERROR "${found} line(s) point outside the repository (above); cite the paper "
                      "by author, title, section, figure and page instead (docs/REFERENCES.md)")
endif()
message(STATUS "self-contained: ${n} files checked, none points outside the repository")
