package scenario

import (
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// modeCharts draws the coordination schemes' comparison: one chart of
// every scheme's accuracy, rounds and resource calls, and one per scheme
// with its figures per role. It returns the files' names.
func modeCharts(dir string, modes []S2Mode) ([]string, error) {
	var names []string
	var acc, rounds, calls plotter.Values
	for _, m := range modes {
		names = append(names, m.Name())
		acc, rounds, calls = append(acc, m.Accuracy), append(rounds, m.RoundsPerQ), append(calls, float64(m.ResourceCalls))
	}
	row, err := panels("Scenario 2 by coordination scheme", names, acc, rounds, calls)
	if err != nil {
		return nil, err
	}
	files := []string{"scenario-2-modes.svg"}
	if err := save(filepath.Join(dir, files[0]), [][]*plot.Plot{row}, 15*vg.Inch, 5*vg.Inch); err != nil {
		return nil, err
	}
	for _, m := range modes {
		var roles []string
		var acc, rounds, calls plotter.Values
		for _, r := range m.Roles {
			roles = append(roles, strings.TrimSuffix(strings.TrimSuffix(r.Role, "_researcher"), "_analyst"))
			acc, rounds, calls = append(acc, r.Accuracy), append(rounds, r.RoundsPerQ), append(calls, float64(r.ResourceCalls))
		}
		row, err := panels("Scenario 2, "+m.Name()+", per role", roles, acc, rounds, calls)
		if err != nil {
			return nil, err
		}
		f := "scenario-2-mode-" + strings.ReplaceAll(m.Name(), "/", "-") + ".svg"
		if err := save(filepath.Join(dir, f), [][]*plot.Plot{row}, 12*vg.Inch, 4*vg.Inch); err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// panels is three bar charts over the same names: accuracy, rounds per
// query and resource calls.
func panels(title string, names []string, acc, rounds, calls plotter.Values) ([]*plot.Plot, error) {
	var row []*plot.Plot
	for i, v := range []struct {
		label string
		vals  plotter.Values
	}{{"accuracy", acc}, {"rounds / query", rounds}, {"resource calls", calls}} {
		p := plot.New()
		p.Title.Text = v.label
		if i == 0 {
			p.Title.Text = title + ": " + v.label
		}
		p.Y.Label.Text = v.label
		b, err := plotter.NewBarChart(v.vals, vg.Points(16))
		if err != nil {
			return nil, err
		}
		b.Color = plotutil.Color(i)
		p.Add(b)
		p.NominalX(names...)
		p.X.Tick.Label.Rotation = 0.5
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -1, -0.5
		if i == 0 {
			p.Y.Min, p.Y.Max = 0, 1
		}
		row = append(row, p)
	}
	return row, nil
}
