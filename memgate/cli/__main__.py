from memgate.cli.main import main

main()
