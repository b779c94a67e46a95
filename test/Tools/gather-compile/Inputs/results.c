/* Calls the entry points of entry-points.mlir through the header
 * gather-compile wrote, and prints what they return; every result is a
 * buffer of its own, freed with free() (ASan checks it under the sanitizer
 * build). */
#include "entry-points.h"

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  float a[2] = {5, 6};
  int64_t i[2] = {1, 0};
  GatherMemRef1 aDesc = {a, a, 0, {2}, {1}};
  GatherMemRef1 iDesc = {i, i, 0, {2}, {1}};
  GatherMemRef1 r;
  _mlir_ciface_id(&r, &aDesc);
  printf("id: %g %g, %s\n", ((float *)r.aligned)[0], ((float *)r.aligned)[1],
         r.allocated == (void *)a ? "the argument" : "a buffer of its own");
  free(r.allocated);
  _mlir_ciface_cst(&r);
  printf("cst: %g %g\n", ((float *)r.aligned)[0], ((float *)r.aligned)[1]);
  free(r.allocated);
  two_results t;
  _mlir_ciface_two(&t, &aDesc, &iDesc);
  printf("two: %g %g, %g %g\n", ((float *)t.result0.aligned)[0],
         ((float *)t.result0.aligned)[1], ((float *)t.result1.aligned)[0],
         ((float *)t.result1.aligned)[1]);
  free(t.result0.allocated);
  free(t.result1.allocated);

  /* 3 rows of 40000: threaded. Element [r, c] holds r * 1000 + c. */
  enum { rows = 3, columns = 40000 };
  double *d = malloc(sizeof(double) * rows * columns);
  int32_t *idx = malloc(sizeof(int32_t) * rows * 2);
  for (int k = 0; k < rows * columns; ++k)
    d[k] = (k / columns) * 1000.0 + k % columns;
  for (int k = 0; k < rows; ++k) {
    idx[2 * k] = columns - 1 - k;
    idx[2 * k + 1] = -1;
  }
  GatherMemRef2 dDesc = {d, d, 0, {rows, columns}, {columns, 1}};
  GatherMemRef2 idxDesc = {idx, idx, 0, {rows, 2}, {2, 1}};
  GatherMemRef2 g;
  _mlir_ciface_dyn(&g, &dDesc, &idxDesc);
  printf("dyn: %lldx%lld:", (long long)g.sizes[0], (long long)g.sizes[1]);
  for (int k = 0; k < rows * 2; ++k)
    printf(" %.0f", ((double *)g.aligned)[k]);
  printf("\n");
  free(g.allocated);
  free(d);
  free(idx);

  printf("scale: %g\n", _mlir_ciface_scale(2.5f, 7));
  _mlir_ciface_nothing();
  return 0;
}
