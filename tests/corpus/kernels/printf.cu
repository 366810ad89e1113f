// Device printf. printf_formats: one thread prints a fixed set of conversions of its arguments
// (the host formats the same values with snprintf and compares the text exactly).
// printf_threads: the even threads of each block print one line each (the order of lines from
// different threads is not defined; the test compares them as a sorted set).
// printf_string_arg: %s of a string in device global memory.
// Checked by tests/corpus/printf_test.cpp.

extern "C" __global__ void printf_formats(int i, unsigned u, long long ll, unsigned long long ull,
                                          float f, double d, char c) {
  printf("int=%d neg=%d unsigned=%u hex=%x HEX=%08X\n", i, -i, u, u, u);
  printf("ll=%lld ull=%llu\n", ll, ull);
  printf("float=%f %.3f %e %g\n", f, f, f, f);
  printf("double=%.10f %.3e\n", d, d);
  printf("char=%c str=%s pct=%%\n", c, "literal");
  printf("[%5d|%-5d|%+d]\n", i, i, i);
}

extern "C" __global__ void printf_threads(int tag) {
  if (threadIdx.x % 2 == 0) printf("tag %d block %d thread %d\n", tag, blockIdx.x, threadIdx.x);
}

extern "C" __global__ void printf_string_arg(const char* text, int width) {
  printf("<%s> <%6d> <%d>\n", text, width, width * 2);
}
