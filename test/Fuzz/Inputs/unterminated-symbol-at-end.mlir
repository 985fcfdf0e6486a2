// linalg sums over the innermost dimension become tcu 

func.func @sgac