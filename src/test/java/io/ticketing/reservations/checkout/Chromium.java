package io.ticketing.reservations.checkout;

import static io.ticketing.reservations.support.LocalResources.deleteRecursively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;

/**
 * Debian's Chromium, headless, through its own ChromeDriver: the browser the checkout page's tests drive. Where it is
 * not installed, the calling test is skipped and says why.
 */
final class Chromium {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path PROFILE = Path.of("target", "checkout-browser");
    /** Where a screenshot of each step goes: {@code target/checkout}, or where {@code -Dcheckout.screenshots=} says. */
    private static final Path SCREENSHOTS = Path.of(System.getProperty("checkout.screenshots", "target/checkout"));

    private Chromium() {
    }

    /** A new browser with a fresh profile, which keeps a log of the requests it sends, headers included. */
    static ChromeDriver start() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "no Chromium here: the checkout page's browser tests need Debian's chromium and chromium-driver "
                        + "packages (" + CHROMIUM + ", " + CHROMEDRIVER + "), which .ci/run installs where it can");
        deleteRecursively(PROFILE);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // A fresh profile, and none of Chromium's own calls home, which a closed network refuses.
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + PROFILE.toAbsolutePath(), "--window-size=900,1000", "--lang=en-GB");
        // The requests as the browser sent them, headers included (ChromeDriver's performance log).
        options.setCapability("goog:loggingPrefs", Map.of(LogType.PERFORMANCE, "ALL"));
        // The driver named, so that Selenium Manager never looks for (or downloads) one.
        ChromeDriverService driver = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        return new ChromeDriver(driver, options);
    }

    /** What {@code browser} shows now, as {@code name}.png among the screenshots. */
    static void screenshot(WebDriver browser, String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Files.write(SCREENSHOTS.resolve(name + ".png"), ((ChromeDriver) browser).getScreenshotAs(OutputType.BYTES));
    }
}
