// Tensor forms for `tcuc inspect` (tensor.empty needs the tensor dialect).
func.func @t(%h: tensor<1000xf16>, %n: index) -> (tensor<63xf32>, tensor<?xf32>) {
  %e = tensor.empty() : tensor<63xf32>
  %r = tcu.reduce <add> %h into %e segment_size 16 : tensor<1000xf16> -> tensor<63xf32>
  %d = tensor.empty(%n) : tensor<?xf32>
  %c = tensor.cast %h : tensor<1000xf16> to tensor<?xf16>
  %s = tcu.scan <add> exclusive %c into %d segment_size 256 : tensor<?xf16> -> tensor<?xf32>
  // Unused: canonicalize removes it (a Pure op), and inspect says so.
  %u = tcu.scan <add> inclusive %c into %d segment_size 64 : tensor<?xf16> -> tensor<?xf32>
  return %r, %s : tensor<63xf32>, tensor<?xf32>
}
