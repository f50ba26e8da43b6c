// Package fastpath names gwsim's library-equivalent components and holds
// the mode that turns them off (GWSIM_FASTPATH, or the hidden --fastpath
// flag). Each component must give the same bytes, or the same verdict, as
// a library call that is too slow for gwsim's sizes; each keeps that call
// beside it as its reference, a differential test holds the two together,
// and with the mode off every call goes to the library, so that a user
// whose input a fast path gets wrong has a way around it, and `make test`
// runs every golden case in both modes.
//
//	component  code                          library                               differential tests                                         10k run, fast vs library
//	yamlin     internal/fastpath/yamlin      sigs.k8s.io/yaml.YAMLToJSONStrict     TestConvertMatchesYAMLToJSONStrictOnCorpus, FuzzConvert    see docs/architecture.md
//	jsonin     internal/fastpath/jsonin,     sigs.k8s.io/json.UnmarshalStrict,     TestFromJSONMatchesLibrary, TestFromMapMatchesLibrary,
//	           offline/load/headerscan.go    encoding/json (the header)            TestTypedDecodeMatchesLibrary, TestScanHeaderCorpus
//	admission  internal/fastpath/admission   k8s.io/apiextensions-apiserver        TestFastAdmitMatchesLibrary, TestCELFastAgreesWithLibrary,
//	                                         (prune, default, schema, CEL, meta)   TestFastDefaultMatchesLibrary, TestMetaValidMatchesLibrary
//	store      offline/store                 controller-runtime's fake client      offline/store's conformance tests, golden TestStoresAgree
//	yamlout    internal/fastpath/yamlout     sigs.k8s.io/yaml.Marshal              TestGolden (yamlout), FuzzMarshal, cmd's FuzzOutputs
//	jsonout    internal/fastpath/jsonout     encoding/json.MarshalIndent           TestSplitMatchesMarshalIndent
//
// jsonin's Lexer is the one JSON reader of the fast readers: the typed
// decoder and the loader's header scan both read with it.
//
// Admission's differential tests are in offline/validate, beside the
// library path they compare against. The store stays in offline/store,
// the client the reconcilers are written against; its switch is here all
// the same. docs/architecture.md has the measured gain of each
// and the command that measures it.
package fastpath
