# Line k (from 0) of the output of bench/string_constants.py --constants must
# print constant k: "c<k>" and "c<k>_" followed by k mod 5 "x"s.
{
  k = NR - 1
  x = substr("xxxx", 1, k % 5)
  expected = "result " k ": tensor<2x!onnx.string> = [\"c" k "\", \"c" k "_" x "\"]"
  if ($0 == expected)
    good++
  else if (!bad++)
    print "line " NR ": " $0 " instead of " expected
}
END { print NR " lines, " good + 0 " as expected" }
