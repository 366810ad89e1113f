// Module-scope variables reached through their symbols (kernels/constant.cu): __constant__
// arrays written with copy_to_symbol (whole and at an offset) and read by kernels, and
// __device__ globals updated by a kernel and read back with copy_from_symbol and through
// symbol_address. Tolerance: bit-exact (the polynomial's inputs are small dyadic values, so
// Horner's products and sums are exact with or without fma contraction).
#include "corpus.hpp"

namespace corpus {
namespace {

std::vector<float> horner(const std::vector<float>& x, const float* c, int degree) {
  std::vector<float> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    float acc = c[degree];
    for (int k = degree - 1; k >= 0; --k) acc = acc * x[i] + c[k];
    y[i] = acc;
  }
  return y;
}

TEST(Symbols, ConstantArrayThroughCopyToSymbol) {
  constexpr int n = 500;
  Rng rng(61);
  std::vector<float> x(n);
  for (float& v : x) v = dyadic(rng, 8, 4);  // |x| <= 2, multiples of 1/4
  float coeffs[16];
  for (float& c : coeffs) c = static_cast<float>(rng.int_in(-3, 3));
  Device device;
  Module module = load(device, "constant");
  ASSERT_EQ(device.symbol_size(module, "poly_coeffs"), sizeof coeffs);
  device.copy_to_symbol(module, "poly_coeffs", coeffs, sizeof coeffs);
  Buffer<float> dx(device, x), dy(device, n);
  for (int degree : {3, 6}) {
    launch(device, module, "const_poly", blocks_for(n, 128), Dim3{128}, dx.ptr(), dy.ptr(), n,
           degree);
    EXPECT_TRUE(bitwise_equal(dy.download(), horner(x, coeffs, degree))) << "degree " << degree;
  }
  // Rewrite one coefficient at a byte offset; the next launch must see it.
  coeffs[2] = 5.0f;
  device.copy_to_symbol(module, "poly_coeffs", &coeffs[2], sizeof(float), 2 * sizeof(float));
  launch(device, module, "const_poly", blocks_for(n, 128), Dim3{128}, dx.ptr(), dy.ptr(), n, 6);
  EXPECT_TRUE(bitwise_equal(dy.download(), horner(x, coeffs, 6))) << "after the partial update";
  float back[16] = {};
  device.copy_from_symbol(back, module, "poly_coeffs", sizeof back);
  EXPECT_EQ(std::memcmp(back, coeffs, sizeof back), 0);
}

TEST(Symbols, ConstantTableWithPerThreadIndices) {
  constexpr int n = 1000;
  Rng rng(62);
  std::vector<int> table(256);
  for (int& v : table) v = static_cast<int>(rng.next_u32());
  std::vector<unsigned char> idx(n);
  for (unsigned char& i : idx) i = static_cast<unsigned char>(rng.next_u32());
  Device device;
  Module module = load(device, "constant");
  device.copy_to_symbol(module, "lookup_table", table.data(), table.size() * sizeof(int));
  Buffer<unsigned char> d_idx(device, idx);
  Buffer<int> out(device, n);
  launch(device, module, "const_lookup", blocks_for(n, 128), Dim3{128}, d_idx.ptr(), out.ptr(), n);
  std::vector<int> want(n);
  for (int i = 0; i < n; ++i) want[i] = table[idx[i]];
  EXPECT_TRUE(bitwise_equal(out.download(), want));
}

TEST(Symbols, DeviceGlobalsUpdatedByAKernel) {
  constexpr int n = 3000;
  Rng rng(63);
  std::vector<unsigned> weights(n);
  for (unsigned& w : weights) w = rng.next_u32() % 100000;
  Device device;
  Module module = load(device, "constant");
  EXPECT_EQ(device.symbol_size(module, "event_count"), sizeof(unsigned long long));
  EXPECT_EQ(device.symbol_size(module, "last_writer"), 64 * sizeof(int));
  const unsigned long long start = 1000;
  device.copy_to_symbol(module, "event_count", &start, sizeof start);
  // Module-scope variables start zero-initialised (as in the CUDA runtime).
  int initial[64];
  device.copy_from_symbol(initial, module, "last_writer", sizeof initial);
  for (int v : initial) EXPECT_EQ(v, 0);
  Buffer<unsigned> d_weights(device, weights);
  launch(device, module, "device_globals", blocks_for(n, 256), Dim3{256}, d_weights.ptr(), n);

  unsigned long long count = 0;
  device.copy_from_symbol(&count, module, "event_count", sizeof count);
  unsigned long long want_count = start;
  for (unsigned w : weights) want_count += w;
  EXPECT_EQ(count, want_count);

  int last[64];
  device.copy_to_host(last, device.symbol_address(module, "last_writer"), sizeof last);
  for (int slot = 0; slot < 64; ++slot) {
    int want = 0;
    for (int i = slot; i < n; i += 64) want = i;
    EXPECT_EQ(last[slot], want) << "slot " << slot;
  }
}

}  // namespace
}  // namespace corpus
