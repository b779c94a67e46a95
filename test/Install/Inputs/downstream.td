// A downstream ODS file building on the installed dialect.
include "gather/Dialect/ONNX/ONNXOps.td"
