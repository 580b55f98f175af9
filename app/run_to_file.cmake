# Runs the built program and keeps what it prints: the man page and the bash completion are the
# program's own output (`warpscope help --man`, `help --completion bash`), made from its command table.
#   cmake -DEXE=... -DOUT=... "-DARGS=help;--man" -P run_to_file.cmake
execute_process(COMMAND ${EXE} ${ARGS} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "${EXE} ${ARGS} failed: ${rc}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
