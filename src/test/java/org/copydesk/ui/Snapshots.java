package org.copydesk.ui;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.scene.Node;
import javafx.scene.SnapshotParameters;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javax.imageio.ImageIO;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Screenshots from TestFX tests (headless Monocle, software rendering) for docs/screenshots: taken
 * only when the tests run with {@code -Dcopydesk.screenshots=docs/screenshots}, so an ordinary
 * run writes nothing. A node is drawn with its transforms (a view scaled to 150 % comes out at
 * 150 %), the window's title bar and the desktop's fonts aside.
 */
public final class Snapshots {

    private static final String WHERE = "copydesk.screenshots";

    private Snapshots() {
    }

    /** Writes {@code node} as {@code name}.png, if screenshots were asked for. */
    public static void save(Node node, String name) {
        String dir = System.getProperty(WHERE);
        if (dir == null || dir.isBlank()) {
            return;
        }
        WaitForAsyncUtils.waitForFxEvents();
        try {
            WritableImage image = WaitForAsyncUtils.asyncFx(() -> node.snapshot(new SnapshotParameters(), null)).get();
            int w = (int) image.getWidth();
            int h = (int) image.getHeight();
            PixelReader pixels = image.getPixelReader();
            BufferedImage png = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    png.setRGB(x, y, pixels.getArgb(x, y));
                }
            }
            Path out = Path.of(dir);
            Files.createDirectories(out);
            ImageIO.write(png, "png", out.resolve(name + ".png").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("could not take the screenshot " + name, e);
        }
    }
}
