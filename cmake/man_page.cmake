# SPDX-License-Identifier: Apache-2.0
# Issue 25, item 7: the manual page ninfer-conform.1, generated at build time from the CLI's own
# help (`--help` of the program, of each command and of each command's commands), so it never
# drifts from the options. Writes OUT (roff) and OUT.gz (gzip -9n: no name, no timestamp).
# Arguments: EXE, OUT, VERSION, SUMMARY (the NAME line).

set(ENV{ASAN_OPTIONS} "detect_leaks=0")  # preset asan: a leak report of --help must not fail the build

# help_of(VAR ARGS...): the help text of `EXE ARGS... --help`.
function(help_of var)
  execute_process(COMMAND ${EXE} ${ARGN} --help RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${EXE} ${ARGN} --help failed (${rc}):\n${err}")
  endif()
  string(REPLACE "${EXE}" "ninfer-conform" text "${text}")  # CLI11 prints argv[0]: the build path
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# commands_of(VAR TEXT): the names listed under a help text's "Subcommands:" heading (CLI11).
function(commands_of var text)
  set(names)
  set(inside OFF)
  string(REPLACE "\n" ";" lines "${text}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^[A-Za-z]+:$")
      set(inside OFF)
      if(line STREQUAL "Subcommands:" OR line STREQUAL "SUBCOMMANDS:")
        set(inside ON)
      endif()
    elseif(inside AND line MATCHES "^  ([a-z][a-z0-9_-]*)( |$)")
      list(APPEND names ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set(${var} ${names} PARENT_SCOPE)
endfunction()

# roff_text(VAR TEXT): TEXT as literal roff lines: backslashes and minus signs escaped, no line
# taken for a request.
function(roff_text var text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  string(REGEX REPLACE "\n+$" "" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# section(VAR TITLE ARGS...): a subsection with the help of `EXE ARGS...`, then one per command of it.
function(section var title)
  help_of(text ${ARGN})
  roff_text(body "${text}")
  roff_text(shown "${title}")
  set(page ".SS \"${shown}\"\n.nf\n${body}\n.fi\n")
  commands_of(commands "${text}")
  foreach(c IN LISTS commands)
    section(sub "${title} ${c}" ${ARGN} ${c})
    string(APPEND page "${sub}")
  endforeach()
  set(${var} "${page}" PARENT_SCOPE)
endfunction()

help_of(top)
commands_of(commands "${top}")
roff_text(top_body "${top}")
roff_text(summary "${SUMMARY}")
string(TIMESTAMP date "%Y-%m-%d" UTC)  # honours SOURCE_DATE_EPOCH
set(page ".TH NINFER\\-CONFORM 1 \"${date}\" \"ninfer\\-conform ${VERSION}\" \"User Commands\"
.SH NAME
ninfer\\-conform \\- ${summary}
.SH SYNOPSIS
.B ninfer\\-conform
.I COMMAND
.RI [ OPTIONS ]
.br
.B ninfer\\-conform
.RB [ \\-\\-help | \\-\\-version ]
.SH DESCRIPTION
.nf
${top_body}
.fi
.SH COMMANDS
Each command's options, as
.B ninfer\\-conform
.I COMMAND
.B \\-\\-help
prints them.
")
foreach(c IN LISTS commands)
  section(sub "ninfer-conform ${c}" ${c})
  string(APPEND page "${sub}\n")
endforeach()
string(APPEND page ".SH \"SEE ALSO\"
The guide and the command line reference: docs/GUIDE.md and docs/cli.md of the source, and the
examples in /usr/share/doc/ninfer\\-conform/examples where the Debian package is installed.
")
file(WRITE ${OUT} "${page}")
execute_process(COMMAND gzip -9n -c ${OUT} OUTPUT_FILE ${OUT}.gz RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip -9n ${OUT} failed (${rc})")
endif()
