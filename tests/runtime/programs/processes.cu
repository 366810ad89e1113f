// Processes and the report's life (issue 32; process_test.cpp). Modes:
//   count N TAG    N launches of `bump`, then "TAG sum=S" (S = 32 * N)
//   spawn SELF     one launch, then SELF run as a child process (`count 2 child`), then one more
//   crash          one launch, then a null write on the host (SIGSEGV)
//   sigkill        one launch, then SIGKILL to itself
//   exit_paths     one launch from main, one from an atexit handler, one from a static destructor
//   exit_errors    each call's answer on those paths (atexit handlers before and after CUDA's init)
//   fork           cudaMalloc, fork(); the child's cudaMalloc and launch answers, then the parent's
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

__global__ void bump(int* p) { atomicAdd(p, 1); }

static int launch_and_read(int times) {
  int* d = nullptr;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  for (int i = 0; i < times; ++i) bump<<<1, 32>>>(d);
  int h = -1;
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return h;
}

/// Each call's answer, for the calls an exit path makes (mode exit_errors).
static void calls_with_errors(const char* where) {
  int* d = nullptr;
  std::printf("%s malloc %s\n", where, cudaGetErrorName(cudaMalloc(&d, sizeof(int))));
  bump<<<1, 32>>>(d);
  std::printf("%s launch %s\n", where, cudaGetErrorName(cudaGetLastError()));
  int h = -1;
  std::printf("%s copy %s\n", where, cudaGetErrorName(cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost)));
  std::printf("%s free %s\n", where, cudaGetErrorName(cudaFree(d)));
}

struct LaunchAtExit {
  int armed = 0;  // 1: launch and read; 2: each call's answer
  ~LaunchAtExit() {
    if (armed == 1) std::printf("static destructor sum=%d\n", launch_and_read(1));
    if (armed == 2) calls_with_errors("static destructor");
  }
};
static LaunchAtExit g_at_exit;

int main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  const std::string mode = argc > 1 ? argv[1] : "count";
  if (mode == "count") {
    const int n = argc > 2 ? std::atoi(argv[2]) : 1;
    std::printf("%s sum=%d\n", argc > 3 ? argv[3] : "main", launch_and_read(n));
  } else if (mode == "spawn") {
    std::printf("parent sum=%d\n", launch_and_read(1));
    const std::string cmd = std::string(argv[2]) + " count 2 child";
    const int rc = std::system(cmd.c_str());
    std::printf("child exit=%d\n", WIFEXITED(rc) ? WEXITSTATUS(rc) : -1);
    std::printf("parent again sum=%d\n", launch_and_read(1));
  } else if (mode == "crash") {
    std::printf("before crash sum=%d\n", launch_and_read(1));
    volatile int* nothing = nullptr;
    *nothing = 1;
  } else if (mode == "sigkill") {
    std::printf("before kill sum=%d\n", launch_and_read(1));
    kill(getpid(), SIGKILL);
  } else if (mode == "exit_paths") {
    g_at_exit.armed = 1;
    std::atexit([] { std::printf("atexit sum=%d\n", launch_and_read(1)); });
    std::printf("main sum=%d\n", launch_and_read(1));
  } else if (mode == "exit_errors") {
    // The same exit paths, each call's answer: an atexit handler registered before CUDA's first
    // call, one registered after it, and a static destructor.
    g_at_exit.armed = 2;
    std::atexit([] { calls_with_errors("atexit before init"); });
    calls_with_errors("main");
    std::atexit([] { calls_with_errors("atexit after init"); });
  } else if (mode == "fork") {
    int* d = nullptr;
    std::printf("parent malloc %s\n", cudaGetErrorName(cudaMalloc(&d, 4)));
    const pid_t pid = fork();
    if (pid == 0) {
      int* c = nullptr;
      std::printf("child malloc %s\n", cudaGetErrorName(cudaMalloc(&c, 4)));
      bump<<<1, 1>>>(d);
      std::printf("child launch %s\n", cudaGetErrorName(cudaGetLastError()));
      std::printf("child sync %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
      _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    cudaMemset(d, 0, 4);
    bump<<<1, 32>>>(d);
    int h = -1;
    const cudaError_t copied = cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost);
    std::printf("parent copy %s sum=%d\n", cudaGetErrorName(copied), h);
  } else {
    std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
    return 2;
  }
  return 0;
}
