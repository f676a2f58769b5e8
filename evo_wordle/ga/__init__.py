"""The DEAP genetic algorithm: creator classes, operators, toolbox factory and GA solvers."""
