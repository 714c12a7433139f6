// A small program with device code, built with the project's gencode (MMAEMU_CUDA_GENCODE): the
// device-code check's test lists, extracts and hashes its modules with the real cuobjdump. It is never
// run.
#include <cstdio>

__global__ void signoff_sample_axpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  signoff_sample_axpy<<<1, 32>>>(2.0f, nullptr, nullptr, 0);
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
