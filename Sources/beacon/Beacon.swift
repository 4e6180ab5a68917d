import ArgumentParser

@main
struct Beacon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "beacon")
}
