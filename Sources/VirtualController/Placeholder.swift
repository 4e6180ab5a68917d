// placeholder until the virtual controller lands
