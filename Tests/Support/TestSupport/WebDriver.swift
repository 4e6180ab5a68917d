// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// Debian's headless Chromium driven through chromedriver (W3C WebDriver over HTTP on loopback,
/// sent by python3's urllib: Foundation's client on Linux rejects chromedriver's headers, which
/// have no space after the colon):
/// enough to load a page, read the DOM with a script, wait for a condition in the page and read
/// the browser's console log. One browser per instance; ``quit()`` ends both programs.
public final class WebDriver: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) {
            self.description = description
        }
    }

    private let driver: BackgroundProgram
    private let base: URL
    private let session: String

    /// Starts chromedriver on a free port and a headless Chromium session with a window of
    /// 1280×800 CSS pixels (a laptop's), or with `phone` a phone's screen of that size
    /// (Chromium's device emulation, as its DevTools do: a window cannot be narrower than 500).
    public static func start(phone: (width: Int, height: Int)? = nil) async throws -> WebDriver {
        let chromedriver = try Executables.require("chromedriver", install: "apt-get install chromium-driver; scripts/setup --tests")
        let chromium = try Executables.require("chromium", install: "apt-get install chromium; scripts/setup --tests")
        let driver = try BackgroundProgram(chromedriver, ["--port=0"])
        var port: String?
        _ = await driver.waitForOutput(timeout: .seconds(20)) { out in
            port = out.components(separatedBy: "started successfully on port ").dropFirst().first?.prefix { $0.isNumber }.description
            return port.map { !$0.isEmpty } ?? false
        }
        guard let port, let base = URL(string: "http://127.0.0.1:\(port)") else {
            throw Failure(description: "chromedriver did not say its port:\n\(driver.output)")
        }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-chromium-\(UUID().uuidString)").path
        var emulation: [String: Any] = [:]
        if let phone { emulation["mobileEmulation"] = ["deviceMetrics": ["width": phone.width, "height": phone.height, "pixelRatio": 1.0]] }
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome",
            "goog:loggingPrefs": ["browser": "ALL"],
            "goog:chromeOptions": emulation.merging([
                "binary": chromium.path,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800", "--hide-scrollbars", "--force-device-scale-factor=1",
                         "--no-first-run", "--user-data-dir=\(profile)"],
            ] as [String: Any]) { mine, _ in mine },
        ] as [String: Any]]]
        let answer = try await Self.request(base.appendingPathComponent("session"), method: "POST", body: capabilities)
        guard let session = (answer["value"] as? [String: Any])?["sessionId"] as? String else {
            throw Failure(description: "no WebDriver session: \(answer)")
        }
        return WebDriver(driver: driver, base: base, session: session)
    }

    /// Runs `body` with a browser started as ``start(phone:)`` does, and ends the browser
    /// however `body` ends.
    public static func session<T>(phone: (width: Int, height: Int)? = nil, _ body: (WebDriver) async throws -> T) async throws -> T {
        let browser = try await start(phone: phone)
        do {
            let value = try await body(browser)
            await browser.quit()
            return value
        } catch {
            await browser.quit()
            throw error
        }
    }

    private init(driver: BackgroundProgram, base: URL, session: String) {
        self.driver = driver
        self.base = base
        self.session = session
    }

    private var sessionURL: URL { base.appendingPathComponent("session").appendingPathComponent(session) }

    /// Loads `url` (returns once the document has loaded).
    public func open(_ url: String) async throws {
        _ = try await Self.request(sessionURL.appendingPathComponent("url"), method: "POST", body: ["url": url])
    }

    /// Runs `script` (a function body: `return …`) in the page and returns its value.
    public func run(_ script: String) async throws -> Any? {
        let answer = try await Self.request(sessionURL.appendingPathComponent("execute/sync"), method: "POST", body: ["script": script, "args": [Any]()])
        return answer["value"]
    }

    /// The page's body as HTML, for failure messages.
    public func body() async throws -> String {
        try await run("return document.body.innerHTML") as? String ?? ""
    }

    /// Waits until `script` returns true in the page; false after `timeout` (a hang bound). The
    /// page itself checks every 10 ms, so the wait ends as soon as the DOM has changed.
    public func waitUntil(_ script: String, timeout: Duration = .seconds(20)) async throws -> Bool {
        let milliseconds = Int(timeout.components.seconds * 1000)
        let waiting = """
            const done = arguments[arguments.length - 1];
            const check = () => { \(script) };
            const deadline = Date.now() + \(milliseconds);
            const poll = () => {
              let ok = false;
              try { ok = check() === true; } catch (e) { ok = false; }
              if (ok || Date.now() > deadline) done(ok); else setTimeout(poll, 10);
            };
            poll();
            """
        let answer = try await Self.request(sessionURL.appendingPathComponent("execute/async"), method: "POST", body: ["script": waiting, "args": [Any]()])
        return answer["value"] as? Bool == true
    }

    /// The page as it is drawn now (the window's viewport), as a PNG decoded for pixel checks.
    public func screenshot() async throws -> PNGImage {
        let answer = try await Self.request(sessionURL.appendingPathComponent("screenshot"), method: "GET", body: nil)
        guard let text = answer["value"] as? String, let png = Data(base64Encoded: text) else {
            throw Failure(description: "no screenshot: \(answer)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-screenshot-\(UUID().uuidString).png")
        try png.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try PNGImage(contentsOf: file)
    }

    /// The browser console's entries since the last call, as `LEVEL message`.
    public func consoleLog() async throws -> [String] {
        let answer = try await Self.request(sessionURL.appendingPathComponent("se/log"), method: "POST", body: ["type": "browser"])
        return (answer["value"] as? [[String: Any]] ?? []).map { "\($0["level"] ?? "?") \($0["message"] ?? "")" }
    }

    /// Ends the browser and chromedriver.
    public func quit() async {
        _ = try? await Self.request(sessionURL, method: "DELETE", body: nil)
        driver.send(SIGTERM)
        _ = await driver.waitForExit(timeout: .seconds(10))
    }

    /// python3's urllib, as code for `python3 -c`: argv method, url; the body on standard input.
    static let client = """
        import sys, urllib.request
        body = sys.stdin.buffer.read() or None
        request = urllib.request.Request(sys.argv[2], data=body, method=sys.argv[1], headers={"Content-Type": "application/json"})
        try:
            answer = urllib.request.urlopen(request, timeout=60).read()
        except urllib.error.HTTPError as error:
            answer = error.read()
        sys.stdout.buffer.write(answer)
        """

    private static func request(_ url: URL, method: String, body: [String: Any]?) async throws -> [String: Any] {
        let python = try Executables.require("python3", install: "apt-get install python3")
        let json = try body.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) } ?? ""
        let answer = try Program.run(python, ["-c", client, method, url.absoluteString], stdin: json)
        guard answer.status == 0 else { throw Failure(description: "WebDriver \(method) \(url.path): \(answer)") }
        return (try? JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any]) ?? [:]
    }
}
