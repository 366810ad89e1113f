# ctest gen_stubs_lines: src/runtime/gen_stubs.cmake on a small source whose lines CMake's list
# splitting would merge ('[' and ']' in comments, ';', a line ending in '\'):
#   cmake -DSCRIPT=<gen_stubs.cmake> -DWORK=<scratch folder> -P gen_stubs_check.cmake
# Expected from the script's rule (a name is implemented when a line starts `WS_API <type> <name>(`
# or `WS_DRV <type> <name>(`; every other exported name gets a stub): cudaA, cudaB, cudaC and cuX
# are defined, so only cudaD and cuY are stubs.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/exports.txt "cudaA\ncudaB\ncudaC\ncudaD\n")
file(WRITE ${WORK}/driver_exports.txt "cuX\ncuY\n")
file(WRITE ${WORK}/api_sample.cpp [==[
// An index in [0, n) opens a bracket this comment does not close.
WS_API cudaError_t cudaA(int i) {  // i in [0, 4)
  return cudaSuccess;
}
#define SAMPLE_MACRO(x) \
  (x)
WS_API cudaError_t cudaB(int j) { return cudaSuccess; }
WS_DRV CUresult cuX(int k) { return CUDA_SUCCESS; }
WS_API cudaError_t cudaC(int k) {  // k in (0, 4]
  return cudaSuccess;
}
]==])
execute_process(
  COMMAND ${CMAKE_COMMAND} -DEXPORTS=${WORK}/exports.txt -DDRIVER_EXPORTS=${WORK}/driver_exports.txt
          -DSOURCES=${WORK}/api_sample.cpp -DOUT_CPP=${WORK}/stubs.cpp -DOUT_MAP=${WORK}/map -P ${SCRIPT}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_stubs_check: gen_stubs.cmake failed (${rc})")
endif()
file(STRINGS ${WORK}/stubs.cpp stubs REGEX "^WS_(DRV_)?STUB\\(")
if(NOT stubs STREQUAL "WS_STUB(cudaD);WS_DRV_STUB(cuY)")
  message(FATAL_ERROR "gen_stubs_check: the stubs are '${stubs}', expected WS_STUB(cudaD);WS_DRV_STUB(cuY)")
endif()
