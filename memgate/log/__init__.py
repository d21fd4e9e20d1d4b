"""memgate.log"""
