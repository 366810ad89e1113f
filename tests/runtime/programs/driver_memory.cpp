// The driver API's memory calls beyond driver_api.cpp, in a program linked with -lcuda as NVIDIA's
// *Drv samples are: virtual memory management (reserve, create, map, set access, a kernel reading
// and writing the mapped memory, two mappings of one allocation), memory pools and stream-ordered
// allocation, CUDA arrays with 1-D, 2-D and 3-D copies, a texture object over an array read by a
// kernel, occupancy, stream attributes and memory operations, the legacy launch calls, peer copies
// and the device's PCI address, cuLink* of two PTX modules. Expected values come from cuda.h,
// the driver API reference, the H100's documented limits and a CPU reference, never from
// warpscope.
// Usage: driver_memory KERNELS.ptx LINK_A.ptx LINK_B.ptx
#include <cuda.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "expect_cu.h"

static CUfunction scale_add = nullptr, tex_read = nullptr;

// y = a x + y on n floats through scale_add, checked against the CPU.
static bool run_scale_add(CUdeviceptr y, CUdeviceptr x, int n) {
  std::vector<float> hx(n), hy(n), want(n), got(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = 0.25f * i;
    hy[i] = 7.0f - i;
    want[i] = 3.0f * hx[i] + hy[i];
  }
  if (cuMemcpyHtoD(x, hx.data(), n * sizeof(float)) != CUDA_SUCCESS) return false;
  if (cuMemcpyHtoD(y, hy.data(), n * sizeof(float)) != CUDA_SUCCESS) return false;
  float a = 3.0f;
  void* params[] = {&y, &x, &a, &n};
  if (cuLaunchKernel(scale_add, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr) != CUDA_SUCCESS) return false;
  if (cuMemcpyDtoH(got.data(), y, n * sizeof(float)) != CUDA_SUCCESS) return false;
  return got == want;
}

static void virtual_memory() {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t gran = 0, rec = 0;
  EXPECT_CU("granularity", cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), CUDA_SUCCESS);
  cuMemGetAllocationGranularity(&rec, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
  // The H100's and H200's granularity, minimum and recommended: 2 MiB.
  EXPECT("granularity 2 MiB", gran == (2u << 20) && rec == (2u << 20));
  size_t free0 = 0, total = 0;
  cuMemGetInfo(&free0, &total);
  CUdeviceptr va = 0;
  EXPECT_CU("reserve", cuMemAddressReserve(&va, 2 * gran, 0, 0, 0), CUDA_SUCCESS);
  EXPECT("reserve aligned", va != 0 && va % gran == 0);
  CUmemGenericAllocationHandle h1 = 0, h2 = 0;
  EXPECT_CU("create not a multiple", cuMemCreate(&h1, gran + 4096, &prop, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("create 1", cuMemCreate(&h1, gran, &prop, 0), CUDA_SUCCESS);
  EXPECT_CU("create 2", cuMemCreate(&h2, gran, &prop, 0), CUDA_SUCCESS);
  size_t free1 = 0;
  cuMemGetInfo(&free1, &total);
  EXPECT("mem info counts the handles", free0 - free1 == 2 * gran);
  EXPECT_CU("map misaligned", cuMemMap(va + 4096, gran, 0, h1, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("map 1", cuMemMap(va, gran, 0, h1, 0), CUDA_SUCCESS);
  EXPECT_CU("map over a mapping", cuMemMap(va, gran, 0, h2, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("map 2", cuMemMap(va + gran, gran, 0, h2, 0), CUDA_SUCCESS);
  CUmemAccessDesc access{};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = 0;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  EXPECT_CU("set access", cuMemSetAccess(va, 2 * gran, &access, 1), CUDA_SUCCESS);
  unsigned long long flags = 0;
  EXPECT_CU("get access", cuMemGetAccess(&flags, &access.location, va + gran + 64), CUDA_SUCCESS);
  EXPECT("access read-write", flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  // x in the first allocation, y across both (its first 100 floats end the first one).
  const int n = 1000;
  const CUdeviceptr x = va, y = va + gran - 100 * sizeof(float);
  EXPECT("kernel reads and writes mapped memory", run_scale_add(y, x, n));
  unsigned type = 0;
  EXPECT_CU("pointer type", cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, y), CUDA_SUCCESS);
  EXPECT("mapped memory is device memory", type == CU_MEMORYTYPE_DEVICE);
  CUmemGenericAllocationHandle back = 0;
  EXPECT_CU("retain handle", cuMemRetainAllocationHandle(&back, reinterpret_cast<void*>(va + gran + 4096)), CUDA_SUCCESS);
  EXPECT("retained handle is the second", back == h2);
  EXPECT_CU("release retained", cuMemRelease(back), CUDA_SUCCESS);
  CUmemAllocationProp got{};
  EXPECT_CU("properties", cuMemGetAllocationPropertiesFromHandle(&got, h1), CUDA_SUCCESS);
  EXPECT("properties values", got.type == CU_MEM_ALLOCATION_TYPE_PINNED && got.location.type == CU_MEM_LOCATION_TYPE_DEVICE &&
                                  got.location.id == 0);
  // A second mapping of the first allocation sees the same bytes.
  CUdeviceptr alias = 0;
  cuMemAddressReserve(&alias, gran, 0, 0, 0);
  EXPECT_CU("map alias", cuMemMap(alias, gran, 0, h1, 0), CUDA_SUCCESS);
  cuMemSetAccess(alias, gran, &access, 1);
  float first[2] = {};
  cuMemcpyDtoH(first, alias + 4, sizeof first);
  EXPECT("alias reads the same memory", first[0] == 0.25f && first[1] == 0.5f);
  // Released while mapped: the memory stays until the last unmap.
  EXPECT_CU("release 1", cuMemRelease(h1), CUDA_SUCCESS);
  EXPECT_CU("release 2", cuMemRelease(h2), CUDA_SUCCESS);
  EXPECT_CU("unmap part", cuMemUnmap(va, gran / 2), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("unmap 1", cuMemUnmap(va, gran), CUDA_SUCCESS);
  cuMemcpyDtoH(first, alias + 4, sizeof first);
  EXPECT("alias keeps the memory", first[0] == 0.25f && first[1] == 0.5f);
  EXPECT_CU("free mapped reservation", cuMemAddressFree(va, 2 * gran), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("unmap 2", cuMemUnmap(va + gran, gran), CUDA_SUCCESS);
  EXPECT_CU("unmap alias", cuMemUnmap(alias, gran), CUDA_SUCCESS);
  EXPECT_CU("free wrong size", cuMemAddressFree(va, gran), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("free reservation", cuMemAddressFree(va, 2 * gran), CUDA_SUCCESS);
  EXPECT_CU("free alias reservation", cuMemAddressFree(alias, gran), CUDA_SUCCESS);
  size_t free2 = 0;
  cuMemGetInfo(&free2, &total);
  EXPECT("memory back after the last unmap", free2 == free0);
}

static void pools(CUstream stream) {
  CUmemoryPool def = nullptr, cur = nullptr;
  EXPECT_CU("default pool", cuDeviceGetDefaultMemPool(&def, 0), CUDA_SUCCESS);
  EXPECT_CU("current pool", cuDeviceGetMemPool(&cur, 0), CUDA_SUCCESS);
  EXPECT("current is default", def != nullptr && cur == def);
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = 0;
  CUmemoryPool pool = nullptr;
  EXPECT_CU("pool create", cuMemPoolCreate(&pool, &props), CUDA_SUCCESS);
  CUdeviceptr p = 0;
  EXPECT_CU("alloc from pool", cuMemAllocFromPoolAsync(&p, 1 << 20, pool, stream), CUDA_SUCCESS);
  cuuint64_t used = 0;
  EXPECT_CU("pool used", cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used), CUDA_SUCCESS);
  EXPECT("pool used 1 MiB", used == (1u << 20));
  CUdeviceptr q = 0;
  EXPECT_CU("alloc async", cuMemAllocAsync(&q, 1000 * sizeof(float), stream), CUDA_SUCCESS);
  EXPECT("kernel on pool memory", run_scale_add(q, p, 1000));
  EXPECT_CU("free async", cuMemFreeAsync(p, stream), CUDA_SUCCESS);
  EXPECT_CU("free async 2", cuMemFreeAsync(q, stream), CUDA_SUCCESS);
  cuStreamSynchronize(stream);
  cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used);
  EXPECT("pool used 0", used == 0);
  EXPECT_CU("pool destroy", cuMemPoolDestroy(pool), CUDA_SUCCESS);
  // Managed-memory hints: managed memory only.
  CUdeviceptr m = 0, d = 0;
  cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_GLOBAL);
  cuMemAlloc(&d, 4096);
  CUmemLocation dev{CU_MEM_LOCATION_TYPE_DEVICE, 0};
  EXPECT_CU("prefetch managed", cuMemPrefetchAsync(m, 4096, dev, 0, stream), CUDA_SUCCESS);
  EXPECT_CU("prefetch device memory", cuMemPrefetchAsync(d, 4096, dev, 0, stream), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("advise", cuMemAdvise(m, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, dev), CUDA_SUCCESS);
  int can = -1;
  EXPECT_CU("can access peer", cuDeviceCanAccessPeer(&can, 0, 0), CUDA_SUCCESS);
  EXPECT("not its own peer", can == 0);
  cuMemFree(m);
  cuMemFree(d);
}

static void arrays() {
  // A 2-D array of 8x4 floats: the descriptor, a 2-D copy in, a texture object read by a kernel.
  const int w = 8, h = 4;
  CUDA_ARRAY_DESCRIPTOR ad{};
  ad.Width = w;
  ad.Height = h;
  ad.Format = CU_AD_FORMAT_FLOAT;
  ad.NumChannels = 1;
  CUarray arr = nullptr;
  EXPECT_CU("array create", cuArrayCreate(&arr, &ad), CUDA_SUCCESS);
  CUDA_ARRAY3D_DESCRIPTOR d3{};
  EXPECT_CU("array 3d descriptor", cuArray3DGetDescriptor(&d3, arr), CUDA_SUCCESS);
  EXPECT("array 3d descriptor values", d3.Width == 8 && d3.Height == 4 && d3.Depth == 0 &&
                                           d3.Format == CU_AD_FORMAT_FLOAT && d3.NumChannels == 1 && d3.Flags == 0);
  std::vector<float> img(w * h), out(w * h, -1);
  for (int i = 0; i < w * h; ++i) img[i] = 1.5f * i;
  CUDA_MEMCPY2D c2{};
  c2.srcMemoryType = CU_MEMORYTYPE_HOST;
  c2.srcHost = img.data();
  c2.srcPitch = w * sizeof(float);
  c2.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c2.dstArray = arr;
  c2.WidthInBytes = w * sizeof(float);
  c2.Height = h;
  EXPECT_CU("memcpy2D to array", cuMemcpy2D(&c2), CUDA_SUCCESS);
  CUDA_RESOURCE_DESC rd{};
  rd.resType = CU_RESOURCE_TYPE_ARRAY;
  rd.res.array.hArray = arr;
  CUDA_TEXTURE_DESC td{};
  td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  td.filterMode = CU_TR_FILTER_MODE_POINT;
  CUtexObject tex = 0;
  EXPECT_CU("texture object", cuTexObjectCreate(&tex, &rd, &td, nullptr), CUDA_SUCCESS);
  CUDA_RESOURCE_DESC rback{};
  EXPECT_CU("texture resource", cuTexObjectGetResourceDesc(&rback, tex), CUDA_SUCCESS);
  EXPECT("texture resource is the array", rback.resType == CU_RESOURCE_TYPE_ARRAY && rback.res.array.hArray == arr);
  CUdeviceptr dout = 0;
  cuMemAlloc(&dout, w * h * sizeof(float));
  int ww = w, hh = h;
  void* params[] = {&tex, &dout, &ww, &hh};
  EXPECT_CU("launch tex_read", cuLaunchKernel(tex_read, h, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr), CUDA_SUCCESS);
  cuMemcpyDtoH(out.data(), dout, w * h * sizeof(float));
  EXPECT("texture reads the array", out == img);
  EXPECT_CU("texture destroy", cuTexObjectDestroy(tex), CUDA_SUCCESS);
  // The array's row 2 back through cuMemcpyAtoH at its byte offset.
  float row[8] = {};
  EXPECT_CU("AtoH", cuMemcpyAtoH(row, arr, 2 * w * sizeof(float), sizeof row), CUDA_SUCCESS);
  EXPECT("AtoH row 2", row[0] == img[16] && row[7] == img[23]);
  EXPECT_CU("array destroy", cuArrayDestroy(arr), CUDA_SUCCESS);

  // A 1-D array of 16 ints: HtoA at an offset, DtoA, AtoA, AtoD.
  CUDA_ARRAY_DESCRIPTOR a1{};
  a1.Width = 16;
  a1.Height = 0;
  a1.Format = CU_AD_FORMAT_SIGNED_INT32;
  a1.NumChannels = 1;
  CUarray one = nullptr, two = nullptr;
  cuArrayCreate(&one, &a1);
  cuArrayCreate(&two, &a1);
  int vals[16], back[16] = {};
  for (int i = 0; i < 16; ++i) vals[i] = 100 + i;
  EXPECT_CU("HtoA", cuMemcpyHtoA(one, 0, vals, sizeof vals), CUDA_SUCCESS);
  EXPECT_CU("AtoA", cuMemcpyAtoA(two, 4 * sizeof(int), one, 0, 12 * sizeof(int)), CUDA_SUCCESS);
  CUdeviceptr lin = 0;
  cuMemAlloc(&lin, sizeof vals);
  cuMemsetD32(lin, 0, 16);
  EXPECT_CU("AtoD", cuMemcpyAtoD(lin, two, 0, sizeof vals), CUDA_SUCCESS);
  cuMemcpyDtoH(back, lin, sizeof back);
  EXPECT("AtoA shifted by 4", back[4] == 100 && back[15] == 111);
  EXPECT_CU("HtoA past the end", cuMemcpyHtoA(one, 8 * sizeof(int), vals, sizeof vals), CUDA_ERROR_INVALID_VALUE);
  cuArrayDestroy(one);
  cuArrayDestroy(two);

  // cuMemcpy3D of a sub-box: a 5x4x3 host volume of ints, the box x 1..3, y 1..2, z 1..2 into a
  // device volume 4 ints wide (pitch 16 bytes) and 2 rows high at (0, 0, 0), and back.
  std::vector<int> vol(5 * 4 * 3), got(4 * 2 * 2, -1);
  for (int i = 0; i < 60; ++i) vol[i] = i;
  CUdeviceptr dvol = 0;
  cuMemAlloc(&dvol, got.size() * sizeof(int));
  cuMemsetD32(dvol, 0xffffffffu, got.size());
  CUDA_MEMCPY3D c3{};
  c3.srcMemoryType = CU_MEMORYTYPE_HOST;
  c3.srcHost = vol.data();
  c3.srcXInBytes = 1 * sizeof(int);
  c3.srcY = 1;
  c3.srcZ = 1;
  c3.srcPitch = 5 * sizeof(int);
  c3.srcHeight = 4;
  c3.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c3.dstDevice = dvol;
  c3.dstPitch = 4 * sizeof(int);
  c3.dstHeight = 2;
  c3.WidthInBytes = 3 * sizeof(int);
  c3.Height = 2;
  c3.Depth = 2;
  EXPECT_CU("memcpy3D sub-box", cuMemcpy3D(&c3), CUDA_SUCCESS);
  cuMemcpyDtoH(got.data(), dvol, got.size() * sizeof(int));
  bool box = true;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 4; ++x) {
        const int want = x < 3 ? ((1 + z) * 4 + 1 + y) * 5 + 1 + x : -1;
        box = box && got[(z * 2 + y) * 4 + x] == want;
      }
  EXPECT("memcpy3D sub-box values", box);
}

static void occupancy_and_streams(CUstream stream) {
  // scale_add uses few registers and no shared memory: 1024-thread blocks fill an H100 SM's 2048
  // threads (2 blocks), the largest block size that does; the minimum grid is 2 blocks on each of
  // the H100 SXM5's 132 SMs.
  int min_grid = 0, block = 0;
  EXPECT_CU("potential block size", cuOccupancyMaxPotentialBlockSize(&min_grid, &block, scale_add, nullptr, 0, 0),
            CUDA_SUCCESS);
  EXPECT("potential block size values", block == 1024 && min_grid == 264);
  EXPECT_CU("potential block size limit", cuOccupancyMaxPotentialBlockSize(&min_grid, &block, scale_add, nullptr, 0, 200),
            CUDA_SUCCESS);
  // At most 200 threads: 200 (7 warps) fit 9 blocks, 1800 threads; 192 and 160 1920; 128 16 blocks,
  // 2048 threads, the SM's most.
  EXPECT("potential block size under 200", block == 128 && min_grid == 16 * 132);
  size_t smem = 0;
  EXPECT_CU("available shared", cuOccupancyAvailableDynamicSMemPerBlock(&smem, scale_add, 2, 128), CUDA_SUCCESS);
  // 228 KiB per SM shared by 2 blocks, less 1 KiB reserved for each.
  EXPECT("available shared 2 blocks", smem == 233472 / 2 - 1024);

  CUstreamAttrValue v{};
  v.priority = -1;
  EXPECT_CU("stream set priority attribute", cuStreamSetAttribute(stream, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v), CUDA_SUCCESS);
  CUstreamAttrValue r{};
  EXPECT_CU("stream get attribute", cuStreamGetAttribute(stream, CU_LAUNCH_ATTRIBUTE_PRIORITY, &r), CUDA_SUCCESS);
  EXPECT("stream attribute value", r.priority == -1);
  unsigned long long id = 0;
  EXPECT_CU("stream id", cuStreamGetId(stream, &id), CUDA_SUCCESS);
  EXPECT("stream id nonzero", id != 0);
  CUdevice dev = -1;
  EXPECT_CU("stream device", cuStreamGetDevice(stream, &dev), CUDA_SUCCESS);
  EXPECT("stream device 0", dev == 0);
  CUcontext ctx = nullptr, cur = nullptr;
  cuCtxGetCurrent(&cur);
  EXPECT_CU("stream ctx", cuStreamGetCtx(stream, &ctx), CUDA_SUCCESS);
  EXPECT("stream ctx is current", ctx == cur);
  CUdeviceptr word = 0;
  cuMemAlloc(&word, 8);
  EXPECT_CU("write value 32", cuStreamWriteValue32(stream, word, 0x12345678u, 0), CUDA_SUCCESS);
  EXPECT_CU("wait value 32 eq", cuStreamWaitValue32(stream, word, 0x12345678u, CU_STREAM_WAIT_VALUE_EQ), CUDA_SUCCESS);
  EXPECT_CU("wait value 32 geq", cuStreamWaitValue32(stream, word, 0x12345600u, CU_STREAM_WAIT_VALUE_GEQ), CUDA_SUCCESS);
  EXPECT_CU("write value 64", cuStreamWriteValue64(stream, word, 0x0102030405060708ull, 0), CUDA_SUCCESS);
  unsigned long long w64 = 0;
  cuMemcpyDtoH(&w64, word, 8);
  EXPECT("write value 64 result", w64 == 0x0102030405060708ull);
  // A wait that is not met when issued could never end here: refused.
  EXPECT_CU("wait never met", cuStreamWaitValue32(stream, word, 1, CU_STREAM_WAIT_VALUE_EQ), CUDA_ERROR_NOT_SUPPORTED);
  CUstreamBatchMemOpParams ops[2] = {};
  ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  ops[0].writeValue.address = word;
  ops[0].writeValue.value = 42;
  ops[1].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
  ops[1].waitValue.address = word;
  ops[1].waitValue.value = 42;
  ops[1].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
  EXPECT_CU("batch mem op", cuStreamBatchMemOp(stream, 2, ops, 0), CUDA_SUCCESS);
  cuMemFree(word);
}

// The legacy launch calls are deprecated in cuda.h: that is what is tested here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static void legacy_and_devices(CUcontext ctx) {
  // The legacy launch: block shape and parameter buffer set beforehand, as CUDA 3's samples did.
  const int n = 256;
  CUdeviceptr x = 0, y = 0;
  cuMemAlloc(&x, n * sizeof(float));
  cuMemAlloc(&y, n * sizeof(float));
  std::vector<float> hx(n, 2.0f), hy(n, 1.0f), got(n);
  cuMemcpyHtoD(x, hx.data(), n * sizeof(float));
  cuMemcpyHtoD(y, hy.data(), n * sizeof(float));
  EXPECT_CU("set block shape", cuFuncSetBlockShape(scale_add, 128, 1, 1), CUDA_SUCCESS);
  EXPECT_CU("param set size", cuParamSetSize(scale_add, 24), CUDA_SUCCESS);
  EXPECT_CU("param set y", cuParamSetv(scale_add, 0, &y, sizeof y), CUDA_SUCCESS);
  cuParamSetv(scale_add, 8, &x, sizeof x);
  EXPECT_CU("param set a", cuParamSetf(scale_add, 16, 0.5f), CUDA_SUCCESS);
  EXPECT_CU("param set n", cuParamSeti(scale_add, 20, n), CUDA_SUCCESS);
  EXPECT_CU("param past the size", cuParamSeti(scale_add, 24, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU("launch grid", cuLaunchGrid(scale_add, 2, 1), CUDA_SUCCESS);
  cuMemcpyDtoH(got.data(), y, n * sizeof(float));
  EXPECT("launch grid result", got[0] == 2.0f && got[255] == 2.0f);
  CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_UNLOADED;
  EXPECT_CU("func is loaded", cuFuncIsLoaded(&state, scale_add), CUDA_SUCCESS);
  EXPECT("func loaded", state == CU_FUNCTION_LOADING_STATE_LOADED);
  // A peer copy between contexts of the one device.
  EXPECT_CU("memcpy peer", cuMemcpyPeer(x, ctx, y, ctx, n * sizeof(float)), CUDA_SUCCESS);
  cuMemcpyDtoH(got.data(), x, n * sizeof(float));
  EXPECT("memcpy peer result", got[7] == 2.0f);
  char bus[32] = {};
  EXPECT_CU("pci bus id", cuDeviceGetPCIBusId(bus, sizeof bus, 0), CUDA_SUCCESS);
  CUdevice by = -1;
  EXPECT_CU("device by pci bus id", cuDeviceGetByPCIBusId(&by, bus), CUDA_SUCCESS);
  EXPECT("device by its own bus id", by == 0);
  // For a 4-byte format, the widest 1-D linear texture is the device attribute's.
  size_t width = 0;
  int attr = 0;
  cuDeviceGetAttribute(&attr, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH, 0);
  EXPECT_CU("texture 1d linear width", cuDeviceGetTexture1DLinearMaxWidth(&width, CU_AD_FORMAT_FLOAT, 1, 0), CUDA_SUCCESS);
  EXPECT("texture 1d linear width value", width == static_cast<size_t>(attr) && width > 0);
  cuMemFree(x);
  cuMemFree(y);
}
#pragma GCC diagnostic pop

// cuLink* of two relocatable PTX modules, one calling the other's function; a cubin input refused.
static void link(const char* a_path, const char* b_path) {
  std::ifstream in(b_path, std::ios::binary);
  const std::string b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CUlinkState state = nullptr;
  EXPECT_CU("link create", cuLinkCreate(0, nullptr, nullptr, &state), CUDA_SUCCESS);
  EXPECT_CU("link add file", cuLinkAddFile(state, CU_JIT_INPUT_PTX, a_path, 0, nullptr, nullptr), CUDA_SUCCESS);
  EXPECT_CU("link add data", cuLinkAddData(state, CU_JIT_INPUT_PTX, const_cast<char*>(b.c_str()), b.size() + 1,
                                           "driver_link_b.ptx", 0, nullptr, nullptr),
            CUDA_SUCCESS);
  const char elf[] = "\x7f" "ELF machine code";
  EXPECT_CU("link add cubin", cuLinkAddData(state, CU_JIT_INPUT_CUBIN, const_cast<char*>(elf), sizeof elf,
                                            "fake.cubin", 0, nullptr, nullptr),
            CUDA_ERROR_NO_BINARY_FOR_GPU);
  void* image = nullptr;
  size_t size = 0;
  EXPECT_CU("link complete", cuLinkComplete(state, &image, &size), CUDA_SUCCESS);
  CUmodule mod = nullptr;
  EXPECT_CU("load linked image", cuModuleLoadData(&mod, image), CUDA_SUCCESS);
  EXPECT_CU("link destroy", cuLinkDestroy(state), CUDA_SUCCESS);
  CUfunction f = nullptr;
  EXPECT_CU("linked kernel", cuModuleGetFunction(&f, mod, "link_kernel"), CUDA_SUCCESS);
  const int n = 64;
  CUdeviceptr out = 0;
  cuMemAlloc(&out, n * sizeof(int));
  int nn = n;
  void* params[] = {&out, &nn};
  EXPECT_CU("launch linked kernel", cuLaunchKernel(f, 1, 1, 1, n, 1, 1, 0, nullptr, params, nullptr), CUDA_SUCCESS);
  int got[n] = {};
  cuMemcpyDtoH(got, out, sizeof got);
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && got[i] == 2 * i + 1;
  EXPECT("linked kernel result", ok);
  cuMemFree(out);
}

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: driver_memory KERNELS.ptx LINK_A.ptx LINK_B.ptx\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::string ptx((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  EXPECT_CU("cuInit", cuInit(0), CUDA_SUCCESS);
  cuDeviceGet(&dev, 0);
  EXPECT_CU("primary retain", cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
  cuCtxSetCurrent(ctx);
  CUmodule mod = nullptr;
  EXPECT_CU("load PTX", cuModuleLoadData(&mod, ptx.c_str()), CUDA_SUCCESS);
  cuModuleGetFunction(&scale_add, mod, "scale_add");
  cuModuleGetFunction(&tex_read, mod, "tex_read");
  CUstream stream = nullptr;
  cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING);
  virtual_memory();
  pools(stream);
  arrays();
  occupancy_and_streams(stream);
  legacy_and_devices(ctx);
  link(argv[2], argv[3]);
  cuStreamDestroy(stream);
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
