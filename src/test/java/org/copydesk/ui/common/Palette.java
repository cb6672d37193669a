package org.copydesk.ui.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A theme's looked-up colours ({@code -color-fg-default: #24292f;} in AtlantaFX's Primer stylesheets)
 * and the WCAG 2 arithmetic on them: relative luminance, contrast ratio, and a translucent colour
 * laid over the surface beneath it.
 */
final class Palette {

    record Rgba(double r, double g, double b, double a) {
        /** This colour laid over an opaque {@code below}. */
        Rgba over(Rgba below) {
            return new Rgba(r * a + below.r * (1 - a), g * a + below.g * (1 - a), b * a + below.b * (1 - a), 1);
        }

        /** WCAG 2 relative luminance (sRGB). */
        double luminance() {
            return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
        }

        private static double channel(double c) {
            double s = c / 255;
            return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
        }
    }

    private static final Pattern ROOT = Pattern.compile("\\.root\\s*\\{([^}]*)}");
    private static final Pattern TOKEN = Pattern.compile("(-color-[\\w-]+)\\s*:\\s*([^;]+);");

    private final String name;
    private final Map<String, String> tokens = new LinkedHashMap<>();

    private Palette(String name, String css) {
        this.name = name;
        Matcher root = ROOT.matcher(css);
        if (!root.find()) {
            throw new IllegalArgumentException(name + " has no .root block");
        }
        Matcher t = TOKEN.matcher(root.group(1));
        while (t.find()) {
            tokens.put(t.group(1), t.group(2).strip());
        }
    }

    static Palette primer(String lightOrDark) {
        return new Palette(lightOrDark, resource("/atlantafx/base/theme/primer-" + lightOrDark + ".css"));
    }

    static String resource(String path) {
        try (InputStream in = Palette.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String name() {
        return name;
    }

    /** A colour: a token ({@code -color-accent-fg}), {@code #rrggbb}, {@code #rgb}, {@code rgb(…)} or {@code rgba(…)}. */
    Rgba colour(String value) {
        String v = value.strip();
        for (int depth = 0; v.startsWith("-color-"); depth++) {
            String next = tokens.get(v);
            if (next == null || depth > 10) {
                throw new IllegalArgumentException(name + " does not define " + v);
            }
            v = next;
        }
        if (v.startsWith("#")) {
            String h = v.substring(1);
            if (h.length() == 3) {
                h = "" + h.charAt(0) + h.charAt(0) + h.charAt(1) + h.charAt(1) + h.charAt(2) + h.charAt(2);
            }
            return new Rgba(Integer.parseInt(h.substring(0, 2), 16), Integer.parseInt(h.substring(2, 4), 16),
                    Integer.parseInt(h.substring(4, 6), 16), 1);
        }
        Matcher m = Pattern.compile("rgba?\\(([^)]*)\\)").matcher(v);
        if (!m.matches()) {
            throw new IllegalArgumentException(name + ": cannot read colour " + value);
        }
        String[] p = m.group(1).split(",");
        return new Rgba(Double.parseDouble(p[0].strip()), Double.parseDouble(p[1].strip()), Double.parseDouble(p[2].strip()),
                p.length > 3 ? Double.parseDouble(p[3].strip()) : 1);
    }

    /** Layers from the bottom up ({@code -color-bg-subtle, -color-warning-muted}) flattened into one opaque colour. */
    Rgba surface(List<String> layersBottomUp) {
        Rgba result = null;
        for (String layer : layersBottomUp) {
            Rgba c = colour(layer);
            result = result == null || c.a() >= 1 ? c : c.over(result);
        }
        if (result == null || result.a() < 1) {
            throw new IllegalArgumentException(name + ": the bottom layer of " + layersBottomUp + " is not opaque");
        }
        return result;
    }

    /** The WCAG contrast ratio of {@code foreground} (laid over the surface if translucent) on the surface. */
    double contrast(String foreground, List<String> surfaceBottomUp) {
        Rgba bg = surface(surfaceBottomUp);
        Rgba fg = colour(foreground);
        if (fg.a() < 1) {
            fg = fg.over(bg);
        }
        double l1 = Math.max(fg.luminance(), bg.luminance());
        double l2 = Math.min(fg.luminance(), bg.luminance());
        return (l1 + 0.05) / (l2 + 0.05);
    }

    static List<String> layers(String cssValue) {
        List<String> out = new ArrayList<>();
        for (String part : cssValue.split(",(?![^(]*\\))")) {
            out.add(part.strip());
        }
        return out;
    }
}
