// Package admission is the fast path of CRD admission: what the API server
// does to a custom resource on create (prune unknown fields, apply
// defaults, check the OpenAPI schema, run the x-kubernetes-validations
// rules, validate metadata), done on the decoded JSON value without the
// library's allocations, for the objects where it can prove the library's
// answer. Each part declines whatever it does not model, and the caller
// (offline/validate) then asks the library:
//
//	CompileWalk, Walk      prune + schema, on a schema compiled once per CRD version
//	CompileDefaults,       the schema's defaults, applied as structural defaulting does
//	ApplyDefaults
//	NewCEL, CEL.Passes     the CRD's rules, compiled by the library's compiler,
//	                       memoised per node on the values each rule reads
//	MetaValid,             apimachinery's ValidateObjectMeta, on metadata
//	PlainMetaValid         as manifests hold it
//
// offline/validate holds the differential tests (TestFastAdmitMatchesLibrary
// and the others in internal/fastpath's table): its library path is the
// reference.
package admission
