// gather-lower-nested-modules checks its pipeline-options when the pass
// manager starts, also for a module with no nested module (it was accepted
// silently then, exit status 0).
// RUN: not gather-opt %s --pass-pipeline='builtin.module(gather-lower-nested-modules{pipeline-options=bogus=1})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: gather-lower-nested-modules: invalid pipeline-options 'bogus=1': unknown option 'bogus'; valid options: gather-form,
// RUN: not gather-opt %s --pass-pipeline="builtin.module(gather-lower-nested-modules{pipeline-options='vector-size=x'})" 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: error: gather-lower-nested-modules: invalid pipeline-options 'vector-size=x':
// RUN: gather-opt %s --pass-pipeline="builtin.module(gather-lower-nested-modules{pipeline-options='num-threads=1'})" | FileCheck %s
// CHECK: func.func @f()

func.func @f() {
  return
}
