func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  return %a : tensor<*xf32>
}
func.func @"not-a-c-name"() {
  return
}
