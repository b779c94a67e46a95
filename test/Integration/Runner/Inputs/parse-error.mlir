// Input of command-line-errors.test (not a test itself): a type that does
// not parse.
func.func @main() {
  %0 = arith.constant 1 : i8x
  return
}
