// REQUIRES: jit
// The printed results are bounded (--print-limit, gatherSetPrintLimit in
// GatherRuntime.h): at most 1000000 elements and empty groups ([]) by default,
// all results together; then the line ends with a marker saying how many were
// not printed, and the exit status stays 0.
//
// An empty tensor with four 2^31 leading sizes (2^124 empty groups, which
// would print without end): 1000000 groups, the marker, done; about 4 MB.
// RUN: gather-runner %s -e four_huge_sizes --entry-point-result=void > %t.huge
// RUN: wc -c < %t.huge | FileCheck %s --check-prefix=HUGE-BYTES
// RUN: head -c 100 %t.huge | FileCheck %s --check-prefix=HUGE-START
// RUN: tail -c 150 %t.huge | FileCheck %s --check-prefix=HUGE-END
// HUGE-BYTES: {{^}}4000176{{$}}
// HUGE-START: result 0: tensor<2147483648x2147483648x2147483648x2147483648x0xf32> = {{\[\[\[\[\[}}], [], []
// HUGE-END: [], [], [] ... (21267647932558653966460912964484513216 more empty groups not printed; --print-limit=0 prints all){{$}}
//
// A result under the limit prints fully (10^6 elements, the default limit).
// RUN: gather-runner %s -e million_elements --entry-point-result=void > %t.million
// RUN: wc -c < %t.million | FileCheck %s --check-prefix=MILLION-BYTES
// RUN: tail -c 20 %t.million | FileCheck %s --check-prefix=MILLION-END
// MILLION-BYTES: {{^}}3002034{{$}}
// MILLION-END: 7, 7, 7, 7, 7]]{{$}}
// MILLION-END-NOT: not printed
//
// One item over it: all but the last, then the marker; --print-limit=0 prints
// every byte (1000001 "[], " minus a separator, the brackets, the prefix,
// the newline).
// RUN: gather-runner %s -e over_the_limit --entry-point-result=void | tail -c 80 | FileCheck %s --check-prefix=OVER
// OVER: [], [] ... (1 more empty group not printed; --print-limit=0 prints all){{$}}
// RUN: gather-runner %s -e over_the_limit --entry-point-result=void --print-limit=0 > %t.all
// RUN: wc -c < %t.all | FileCheck %s --check-prefix=ALL-BYTES
// RUN: tail -c 10 %t.all | FileCheck %s --check-prefix=ALL-END
// ALL-BYTES: {{^}}4000039{{$}}
// ALL-END: [], []]{{$}}
//
// The limit counts the results together: where it runs out, the line stops
// (its brackets left open), and later results print only the marker.
// RUN: gather-runner %s -e three_results --entry-point-result=void --print-limit=4 | FileCheck %s --check-prefix=FOUR
// FOUR:      result 0: tensor<2x3xi32> = {{\[\[}}1, 2, 3], [4 ... (2 more elements not printed; --print-limit=0 prints all)
// FOUR-NEXT: result 1: tensor<f32> = ... (1 more element not printed; --print-limit=0 prints all)
// FOUR-NEXT: result 2: tensor<2x0xf32> = ... (2 more empty groups not printed; --print-limit=0 prints all)
// FOUR-NOT: result
// RUN: gather-runner %s -e three_results --entry-point-result=void --print-limit=6 | FileCheck %s --check-prefix=SIX
// SIX:      result 0: tensor<2x3xi32> = {{\[\[}}1, 2, 3], [4, 5, 6]]{{$}}
// SIX-NEXT: result 1: tensor<f32> = ... (1 more element not printed; --print-limit=0 prints all)
// RUN: gather-runner %s -e three_results --entry-point-result=void --print-limit=8 | FileCheck %s --check-prefix=EIGHT
// EIGHT:      result 0: tensor<2x3xi32> = {{\[\[}}1, 2, 3], [4, 5, 6]]{{$}}
// EIGHT-NEXT: result 1: tensor<f32> = 1.5{{$}}
// EIGHT-NEXT: result 2: tensor<2x0xf32> = {{\[\[}}] ... (1 more empty group not printed; --print-limit=0 prints all)
// RUN: gather-runner %s -e three_results --entry-point-result=void --print-limit=9 | FileCheck %s --check-prefix=NINE
// NINE:      result 0: tensor<2x3xi32> = {{\[\[}}1, 2, 3], [4, 5, 6]]{{$}}
// NINE-NEXT: result 1: tensor<f32> = 1.5{{$}}
// NINE-NEXT: result 2: tensor<2x0xf32> = {{\[\[}}], []]{{$}}
//
// An invalid limit is a command-line error.
// RUN: not gather-runner %s -e three_results --entry-point-result=void --print-limit=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: for the --print-limit option: '-1' value invalid for ulong argument!
// RUN: not gather-runner %s -e three_results --entry-point-result=void --print-limit=many 2>&1 | FileCheck %s --check-prefix=WORD
// WORD: for the --print-limit option: 'many' value invalid for ulong argument!

func.func @four_huge_sizes() -> tensor<2147483648x2147483648x2147483648x2147483648x0xf32> {
  %e = tensor.empty() : tensor<2147483648x2147483648x2147483648x2147483648x0xf32>
  return %e : tensor<2147483648x2147483648x2147483648x2147483648x0xf32>
}

func.func @million_elements() -> tensor<1000x1000xi8> {
  %c = arith.constant dense<7> : tensor<1000x1000xi8>
  return %c : tensor<1000x1000xi8>
}

func.func @over_the_limit() -> tensor<1000001x0xf32> {
  %e = tensor.empty() : tensor<1000001x0xf32>
  return %e : tensor<1000001x0xf32>
}

func.func @three_results() -> (tensor<2x3xi32>, tensor<f32>, tensor<2x0xf32>) {
  %a = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %b = arith.constant dense<1.5> : tensor<f32>
  %c = tensor.empty() : tensor<2x0xf32>
  return %a, %b, %c : tensor<2x3xi32>, tensor<f32>, tensor<2x0xf32>
}
