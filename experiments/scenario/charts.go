package scenario

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// charts draws the scenario's figures as SVG files in dir and returns
// their names.
func (r *Results) charts(dir string) ([]string, error) {
	var name string
	var plots [][]*plot.Plot
	var err error
	switch {
	case r.S1 != nil:
		name, plots = "scenario-1-resource-calls.svg", [][]*plot.Plot{{fig3(r.S1)}}
	case r.S2 != nil:
		var p *plot.Plot
		if p, err = fig4(r.S2); err != nil {
			return nil, err
		}
		name = "scenario-2-per-user.svg"
		if err := save(filepath.Join(dir, name), [][]*plot.Plot{{p}}, 6*vg.Inch, 4*vg.Inch); err != nil {
			return nil, err
		}
		if len(r.S2.Modes) == 0 {
			return []string{name}, nil
		}
		files, err := modeCharts(dir, r.S2.Modes)
		return append([]string{name}, files...), err
	case r.S3 != nil:
		name, plots = "scenario-3-blocks.svg", fig5(r.S3)
		if err := save(filepath.Join(dir, name), plots, 6*vg.Inch, 6*vg.Inch); err != nil {
			return nil, err
		}
		files := []string{name}
		for _, kind := range []string{"agents", "resources"} {
			var grid [][]*plot.Plot
			for i, blk := range r.S3.Blocks {
				if i%3 == 0 {
					grid = append(grid, nil)
				}
				m := blk.Matrix
				title := blk.Block + " " + blk.Condition + ": agents used (audit metrics)"
				cols, use, granted := m.Agents, m.AgentUse, m.AgentGranted
				if kind == "resources" {
					title = blk.Block + " " + blk.Condition + ": resources called (bus)"
					cols, use, granted = m.Resources, m.ResourceUse, m.ResourceGranted
				}
				p, err := matrixPlot(title, m.Users, cols, use, granted)
				if err != nil {
					return nil, err
				}
				grid[len(grid)-1] = append(grid[len(grid)-1], p)
			}
			for len(grid[len(grid)-1]) < 3 {
				grid[len(grid)-1] = append(grid[len(grid)-1], plot.New())
			}
			f := "scenario-3-access-" + kind + ".svg"
			if err := save(filepath.Join(dir, f), grid, 15*vg.Inch, vg.Length(len(grid))*4*vg.Inch); err != nil {
				return nil, err
			}
			files = append(files, f)
		}
		return files, nil
	}
	if err != nil {
		return nil, err
	}
	if err := save(filepath.Join(dir, name), plots, 6*vg.Inch, 4*vg.Inch); err != nil {
		return nil, err
	}
	return []string{name}, nil
}

// save tiles plots on one SVG canvas (gonum/plot's vgsvg backend).
func save(path string, plots [][]*plot.Plot, w, h vg.Length) error {
	c := vgsvg.New(w, h)
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: len(plots), Cols: len(plots[0]), PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(plots, tiles, dc)
	for i, row := range plots {
		for j, p := range row {
			p.Draw(canvases[i][j])
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

var dashed = []vg.Length{vg.Points(5), vg.Points(3)}

// fig3 is Fig. 3: cumulative resource calls over the query index, shared
// (solid) and isolated (dashed), one colour per overlap.
func fig3(s *S1) *plot.Plot {
	p := plot.New()
	p.Title.Text = "Scenario 1: cumulative resource calls (solid shared, dashed isolated)"
	p.X.Label.Text = "query index (per user)"
	p.Y.Label.Text = "resource calls, all users"
	p.Legend.Top, p.Legend.Left = true, true
	colour := map[int]int{}
	for _, run := range s.Runs {
		if _, ok := colour[run.Overlap]; !ok {
			colour[run.Overlap] = len(colour)
		}
		xys := make(plotter.XYs, len(run.Cumulative)+1)
		for i, v := range run.Cumulative {
			xys[i+1] = plotter.XY{X: float64(i + 1), Y: float64(v)}
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			continue
		}
		l.Color = plotutil.Color(colour[run.Overlap])
		l.Width = vg.Points(1.5)
		if run.Mode == "isolated" {
			l.Dashes = dashed
		}
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("ρ=%d%% %s", run.Overlap, run.Mode), l)
	}
	return p
}

// fig4 is Fig. 4: resource calls per user, shared beside isolated.
func fig4(s *S2) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = "Scenario 2: resource calls per user"
	p.Y.Label.Text = "resource calls"
	var sh, iso plotter.Values
	var names []string
	for _, u := range s.Users {
		sh, iso = append(sh, float64(u.Shared)), append(iso, float64(u.Isolated))
		names = append(names, u.Role)
	}
	w := vg.Points(18)
	a, err := plotter.NewBarChart(sh, w)
	if err != nil {
		return nil, err
	}
	a.Color, a.Offset = plotutil.Color(0), -w/2
	b, err := plotter.NewBarChart(iso, w)
	if err != nil {
		return nil, err
	}
	b.Color, b.Offset = plotutil.Color(1), w/2
	p.Add(a, b)
	p.Legend.Add("shared memory", a)
	p.Legend.Add("isolated", b)
	p.Legend.Top, p.Legend.Left = true, true
	p.NominalX(names...)
	return p, nil
}

// fig5 is Fig. 5: accuracy, agents and resource calls per query over the
// blocks, one panel each.
func fig5(s *S3) [][]*plot.Plot {
	series := []struct {
		name string
		get  func(S3Block) float64
	}{
		{"accuracy", func(b S3Block) float64 { return b.Accuracy }},
		{"agents / query", func(b S3Block) float64 { return b.Agents }},
		{"resource calls / query", func(b S3Block) float64 { return b.Resources }},
	}
	var names []string
	for _, b := range s.Blocks {
		names = append(names, b.Block)
	}
	var out [][]*plot.Plot
	for i, sr := range series {
		p := plot.New()
		if i == 0 {
			p.Title.Text = "Scenario 3: per block (grant t0–t4, revoke t5–t8)"
		}
		p.Y.Label.Text = sr.name
		p.Y.Min = 0
		xys := make(plotter.XYs, len(s.Blocks))
		for j, b := range s.Blocks {
			xys[j] = plotter.XY{X: float64(j), Y: sr.get(b)}
		}
		if l, pts, err := plotter.NewLinePoints(xys); err == nil {
			l.Color, pts.Color = plotutil.Color(i), plotutil.Color(i)
			pts.Shape = plotutil.Shape(i)
			p.Add(l, pts)
		}
		p.NominalX(names...)
		out = append(out, []*plot.Plot{p})
	}
	return out
}

var (
	grantedFill = color.RGBA{R: 0xff, G: 0xd7, B: 0x3a, A: 0xff} // the paper's yellow
	deniedFill  = color.RGBA{R: 0xee, G: 0xee, B: 0xee, A: 0xff}
	outsideFill = color.RGBA{R: 0xe0, G: 0x30, B: 0x30, A: 0xff}
)

// matrixPlot draws usage counts per (user, column), granted cells yellow,
// a use outside a granted cell red.
func matrixPlot(title string, users, cols []string, use [][]int, granted [][]bool) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	var labels plotter.XYLabels
	for u := range users {
		for c := range cols {
			x, y := float64(c), float64(len(users)-1-u)
			fill := deniedFill
			if granted[u][c] {
				fill = grantedFill
			} else if use[u][c] > 0 {
				fill = outsideFill
			}
			poly, err := plotter.NewPolygon(plotter.XYs{{X: x - .5, Y: y - .5}, {X: x + .5, Y: y - .5}, {X: x + .5, Y: y + .5}, {X: x - .5, Y: y + .5}})
			if err != nil {
				return nil, err
			}
			poly.Color = fill
			poly.LineStyle.Color = color.White
			p.Add(poly)
			labels.XYs = append(labels.XYs, plotter.XY{X: x, Y: y})
			labels.Labels = append(labels.Labels, fmt.Sprint(use[u][c]))
		}
	}
	l, err := plotter.NewLabels(labels)
	if err != nil {
		return nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
	}
	p.Add(l)
	var xs, ys []string
	for _, c := range cols {
		xs = append(xs, strings.TrimSuffix(strings.TrimSuffix(short(c), "_agent"), "_kb"))
	}
	for u := range users {
		ys = append(ys, short(users[len(users)-1-u]))
	}
	p.NominalX(xs...)
	p.NominalY(ys...)
	return p, nil
}
