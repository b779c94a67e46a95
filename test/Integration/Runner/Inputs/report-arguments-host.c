// A C host that calls libgather_runtime's reports (GatherRuntime.h) with
// arguments only a C caller passes: a null position, a negative rank, a
// negative axis size. Each is reported, without reading through the null
// pointer or overflowing.
#include "gather/Runtime/GatherRuntime.h"

#include <stdint.h>
#include <stdio.h>

static void printReport(const char *message, void *userData) {
  (void)userData;
  printf("%s\n", message);
}

int main(void) {
  gatherSetErrorHandler(printReport, NULL);
  int64_t position[2] = {1, 2};
  gatherReportIndexError(NULL, 5, position, 2, 1, 4);
  gatherReportIndexError(NULL, 5, NULL, 2, 1, 4);
  gatherReportIndexError(NULL, 5, position, -3, 1, 4);
  gatherReportIndexError(NULL, 5, position, 2, 1, INT64_MIN);
  gatherReportIndexErrorsOmitted(NULL, 3, 1, -7);
  printf("done\n");
  return 0;
}
