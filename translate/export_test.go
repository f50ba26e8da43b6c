package translate

// TranslateSpread is Translate on workers goroutines that take chunk
// routes at a time, whatever the size of the input, for tests that check
// that the Output does not depend on it.
func TranslateSpread(in Input, opts Options, workers, chunk int) Output {
	return translateOn(in, opts, spread{workers: workers, chunk: chunk})
}

// ParallelMinRoutes is the fewest routes for which Translate spreads its
// work.
const ParallelMinRoutes = parallelMinRoutes
