/* A C host of the kernel gather-compile makes of
 * softmax_topk_gather_mul.onnx, built from the generated header alone:
 *   host <data.bin> <indices.bin> <out.bin>
 * reads `data` (3x5 float) and `indices` (3x3 int64, the TopK positions
 * the host computed), calls the kernel and writes its 3x3 float result. */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>

static int readAll(const char *path, void *buffer, size_t bytes) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return 0;
  size_t read = fread(buffer, 1, bytes, file);
  fclose(file);
  return read == bytes;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: host data.bin indices.bin out.bin\n");
    return 2;
  }
  float data[3 * 5];
  int64_t indices[3 * 3];
  if (!readAll(argv[1], data, sizeof data) ||
      !readAll(argv[2], indices, sizeof indices)) {
    fprintf(stderr, "host: cannot read the inputs\n");
    return 2;
  }
  GatherMemRef2 dataDesc = {data, data, 0, {3, 5}, {5, 1}};
  GatherMemRef2 indicesDesc = {indices, indices, 0, {3, 3}, {3, 1}};
  GatherMemRef2 result;
  _mlir_ciface_main_graph_gather_0(&result, &dataDesc, &indicesDesc);
  if (result.sizes[0] != 3 || result.sizes[1] != 3) {
    fprintf(stderr, "host: result of size %lldx%lld\n",
            (long long)result.sizes[0], (long long)result.sizes[1]);
    return 2;
  }
  FILE *out = fopen(argv[3], "wb");
  const float *values = (const float *)result.aligned + result.offset;
  for (int64_t i = 0; i < 3; ++i)
    fwrite(values + i * result.strides[0], sizeof(float), 3, out);
  fclose(out);
  free(result.allocated);
  return 0;
}
