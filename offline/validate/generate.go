package validate

//go:generate go run gen_crds.go
